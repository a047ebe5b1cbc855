import { ProviderError, type StreamEvent } from '@svc/core';
import * as v from 'valibot';
import { mapOpenAIFinishReason } from '../openai/map-openai-finish-reason.js';
import { mapOpenAIUsage } from '../openai/map-openai-usage.js';
import { openAIChunkSchema } from '../openai/openai-api.js';
import { openAIPayloadError } from '../openai/openai-error.js';
import type { CallOptions, ProviderChatRequest } from '../provider.js';
import { isRecord } from '../shared/http.js';
import { parseSseJson, readSse } from '../shared/sse.js';
import type { AzureConfig } from './azure-config.js';
import { postAzureRequest } from './post-azure-request.js';

/**
 * A streaming chat completion. Resolves once Azure answered 2xx (failures before the first byte
 * reject here, so the caller can still fall back); later failures throw from the iterator.
 */
export async function azureStream(config: AzureConfig, request: ProviderChatRequest, options: CallOptions | undefined): Promise<AsyncIterable<StreamEvent>> {
  const response = await postAzureRequest(config, request, options, true);
  return streamAzureEvents(config.provider, readSse(config.provider, response.body, options?.signal));
}

/**
 * The OpenAI chunk stream as Azure sends it. It differs from OpenAI's in two ways this loop
 * handles (the OpenAI adapter's loop is not exported, and takes `meta` from the first chunk):
 * the first chunk is a `prompt_filter_results` chunk with empty `id`/`model` and no choices, so
 * `meta` waits for the first chunk that names the response; and with asynchronous filtering,
 * `content_filter_results` chunks may follow the finish, which carry no delta and are skipped.
 */
export async function* streamAzureEvents(provider: string, messages: AsyncIterable<{ data: string }>): AsyncGenerator<StreamEvent> {
  let meta = false;
  let finished = false;
  let toolChoices: Set<number> | undefined;
  for await (const message of messages) {
    if (message.data === '[DONE]') {
      if (finished) return;
      break;
    }
    const json = parseSseJson(provider, message.data);
    if (isRecord(json) && json.error != null) throw openAIPayloadError(provider, json);
    const parsed = v.safeParse(openAIChunkSchema, json);
    if (!parsed.success) {
      throw new ProviderError({ provider, kind: 'server', message: `${provider} sent an unexpected stream event: ${v.summarize(parsed.issues)}` });
    }
    const chunk = parsed.output;
    if (!meta && (chunk.id || chunk.model)) {
      meta = true;
      yield { type: 'meta', id: chunk.id || undefined, model: chunk.model || undefined };
    }
    const choices = chunk.choices ?? [];
    for (let position = 0; position < choices.length; position++) {
      const choice = choices[position]!;
      const index = choice.index ?? position;
      const delta = choice.delta;
      if (delta != null) {
        if (delta.content) yield { type: 'text-delta', choice: index, text: delta.content };
        if (delta.refusal) yield { type: 'refusal-delta', choice: index, text: delta.refusal };
        if (delta.tool_calls != null) {
          toolChoices ??= new Set();
          toolChoices.add(index);
          for (let i = 0; i < delta.tool_calls.length; i++) {
            const call = delta.tool_calls[i]!;
            const event: StreamEvent = { type: 'tool-call-delta', choice: index, index: call.index ?? i, argumentsDelta: call.function?.arguments ?? '' };
            if (call.id != null) event.id = call.id;
            if (call.function?.name != null) event.name = call.function.name;
            yield event;
          }
        }
      }
      if (choice.finish_reason != null) {
        finished = true;
        const reason = choice.finish_reason === 'stop' && toolChoices?.has(index) ? 'tool_calls' : mapOpenAIFinishReason(choice.finish_reason);
        yield { type: 'finish', choice: index, finishReason: reason };
      }
    }
    if (chunk.usage != null) yield { type: 'usage', usage: mapOpenAIUsage(chunk.usage) };
  }
  // A close (or [DONE]) before any finish_reason would pass a truncated answer off as complete.
  if (!finished) throw new ProviderError({ provider, kind: 'server', message: `${provider} closed the stream before the answer finished.` });
}

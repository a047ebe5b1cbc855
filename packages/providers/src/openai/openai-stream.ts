import { ProviderError, type StreamEvent } from '@svc/core';
import * as v from 'valibot';
import type { CallOptions, ProviderChatRequest } from '../provider.js';
import { isRecord } from '../shared/http.js';
import { firstEventTimer, parseSseJson, readSse } from '../shared/sse.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
import { mapOpenAIUsage } from './map-openai-usage.js';
import { openAIChunkSchema } from './openai-api.js';
import type { OpenAIConfig } from './openai-config.js';
import { openAIPayloadError } from './openai-error.js';
import { postOpenAIRequest } from './post-openai-request.js';

/**
 * A streaming chat completion. Resolves once the upstream answered 2xx, so failures before the
 * first byte reject here and the caller can still fall back; later failures throw from the
 * iterator.
 */
export async function openAIStream(config: OpenAIConfig, request: ProviderChatRequest, options: CallOptions | undefined): Promise<AsyncIterable<StreamEvent>> {
  const response = await postOpenAIRequest(config, request, options, true);
  return streamOpenAIEvents(config.provider, readSse(config.provider, response.body, options?.signal, firstEventTimer(response, options?.firstByteBy)));
}

/** How `streamOpenAIEvents` treats the end of a stream. */
export interface OpenAIStreamOptions {
  /**
   * Treat `[DONE]` before any `finish_reason` as a truncated answer and throw. Default false:
   * OpenAI-compatible vendors differ here, so for them `[DONE]` alone ends the stream. A close
   * without `[DONE]` before the finish always throws.
   */
  requireFinish?: boolean;
}

/**
 * The events of an OpenAI chat-completions chunk stream (SSE messages, `[DONE]` included).
 * `meta` comes from the first chunk that names the response: Azure opens with a
 * `prompt_filter_results` chunk whose `id`/`model` are empty. Chunks without a delta (Azure's
 * late `content_filter_results`) yield nothing.
 */
export async function* streamOpenAIEvents(provider: string, messages: AsyncIterable<{ data: string }>, options: OpenAIStreamOptions = {}): AsyncGenerator<StreamEvent> {
  let meta = false;
  let finished = false;
  // Choices that produced tool calls, so a vendor's "stop" after tool calls still reads tool_calls.
  let toolChoices: Set<number> | undefined;
  for await (const message of messages) {
    if (message.data === '[DONE]') {
      if (finished || !options.requireFinish) return;
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
      const event: Extract<StreamEvent, { type: 'meta' }> = { type: 'meta', id: chunk.id || undefined, model: chunk.model || undefined };
      if (chunk.system_fingerprint) event.systemFingerprint = chunk.system_fingerprint;
      yield event;
    }
    const choices = chunk.choices ?? [];
    for (let position = 0; position < choices.length; position++) {
      const choice = choices[position]!;
      const index = choice.index ?? position;
      const delta = choice.delta;
      if (delta != null) {
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (reasoning) yield { type: 'reasoning-delta', choice: index, text: reasoning };
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
  // Ending before any finish_reason would pass a truncated answer off as complete.
  if (!finished) throw new ProviderError({ provider, kind: 'server', message: `${provider} closed the stream before the answer finished.` });
}

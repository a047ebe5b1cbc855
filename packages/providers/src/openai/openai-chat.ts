import { type ChatChoice, type ChatResult, ProviderError, type ToolCall } from '@svc/core';
import * as v from 'valibot';
import type { CallOptions, ProviderChatRequest } from '../provider.js';
import type { HttpResponse } from '../shared/http-client.js';
import { isRecord, readResponseJson } from '../shared/http.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
import { mapOpenAIUsage } from './map-openai-usage.js';
import { type OpenAIChatResponse, openAIChatResponseSchema } from './openai-api.js';
import type { OpenAIConfig } from './openai-config.js';
import { openAIPayloadError } from './openai-error.js';
import { postOpenAIRequest } from './post-openai-request.js';

/** One non-streaming chat completion. */
export async function openAIChat(config: OpenAIConfig, request: ProviderChatRequest, options: CallOptions | undefined): Promise<ChatResult> {
  const response = await postOpenAIRequest(config, request, options, false);
  return readOpenAIChatResponse(config.provider, response, request.model, options?.signal);
}

/**
 * Reads, validates and maps an OpenAI-format chat answer (OpenAI, compatible vendors, Azure).
 * Some compatible vendors (OpenRouter, proxies) report upstream failures inside a 200 body.
 */
export async function readOpenAIChatResponse(provider: string, response: HttpResponse, model: string, signal: AbortSignal | undefined): Promise<ChatResult> {
  const json = await readResponseJson(provider, response, signal);
  if (isRecord(json) && json.error != null && json.choices === undefined) throw openAIPayloadError(provider, json);
  const parsed = v.safeParse(openAIChatResponseSchema, json);
  if (!parsed.success) {
    throw new ProviderError({
      provider,
      kind: 'server',
      message: `${provider} sent an unexpected response: ${v.summarize(parsed.issues)}`,
      upstreamStatus: response.status,
    });
  }
  return mapOpenAIResponse(parsed.output, model);
}

export function mapOpenAIResponse(response: OpenAIChatResponse, requestedModel: string): ChatResult {
  const result: ChatResult = {
    model: response.model ?? requestedModel,
    choices: response.choices.map((choice, position): ChatChoice => {
      const wire = choice.message;
      const toolCalls = wire.tool_calls?.map((call): ToolCall => ({ id: call.id, name: call.function.name, arguments: call.function.arguments ?? '' }));
      const hasToolCalls = toolCalls !== undefined && toolCalls.length > 0;
      const mapped: ChatChoice = {
        index: choice.index ?? position,
        message: { role: 'assistant', content: wire.content ?? null },
        // Some compatible servers answer tool calls with finish_reason "stop".
        finishReason: hasToolCalls && (choice.finish_reason === 'stop' || choice.finish_reason == null) ? 'tool_calls' : mapOpenAIFinishReason(choice.finish_reason),
      };
      if (hasToolCalls) mapped.message.toolCalls = toolCalls;
      if (wire.refusal != null) mapped.message.refusal = wire.refusal;
      const reasoning = wire.reasoning_content ?? wire.reasoning;
      if (reasoning != null && reasoning !== '') mapped.message.reasoning = reasoning;
      if (choice.logprobs != null) mapped.logprobs = choice.logprobs;
      return mapped;
    }),
  };
  if (response.id != null) result.id = response.id;
  if (response.created != null) result.created = response.created;
  if (response.system_fingerprint) result.systemFingerprint = response.system_fingerprint;
  if (response.usage != null) result.usage = mapOpenAIUsage(response.usage);
  return result;
}

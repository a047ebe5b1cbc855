import { type ChatResult, ProviderError } from '@svc/core';
import * as v from 'valibot';
import { openAIChatResponseSchema } from '../openai/openai-api.js';
import { mapOpenAIResponse } from '../openai/openai-chat.js';
import { openAIPayloadError } from '../openai/openai-error.js';
import type { CallOptions, ProviderChatRequest } from '../provider.js';
import { isRecord, readResponseJson } from '../shared/http.js';
import type { AzureConfig } from './azure-config.js';
import { postAzureRequest } from './post-azure-request.js';

/**
 * One non-streaming chat completion. The answer is OpenAI's shape plus `prompt_filter_results`
 * and per-choice `content_filter_results`, which the schema skips; a completion cut by the
 * filter says so in `finish_reason: content_filter`, mapped like OpenAI's.
 */
export async function azureChat(config: AzureConfig, request: ProviderChatRequest, options: CallOptions | undefined): Promise<ChatResult> {
  const response = await postAzureRequest(config, request, options, false);
  const json = await readResponseJson(config.provider, response, options?.signal);
  if (isRecord(json) && json.error != null && json.choices === undefined) throw openAIPayloadError(config.provider, json);
  const parsed = v.safeParse(openAIChatResponseSchema, json);
  if (!parsed.success) {
    throw new ProviderError({
      provider: config.provider,
      kind: 'server',
      message: `${config.provider} sent an unexpected response: ${v.summarize(parsed.issues)}`,
      upstreamStatus: response.status,
    });
  }
  return mapOpenAIResponse(parsed.output, request.model);
}

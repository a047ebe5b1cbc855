import type { ChatResult } from '@svc/core';
import { readOpenAIChatResponse } from '../openai/openai-chat.js';
import type { CallOptions, ProviderChatRequest } from '../provider.js';
import type { AzureConfig } from './azure-config.js';
import { postAzureRequest } from './post-azure-request.js';

/**
 * One non-streaming chat completion. The answer is OpenAI's shape plus `prompt_filter_results`
 * and per-choice `content_filter_results`, which the schema skips; a completion cut by the
 * filter says so in `finish_reason: content_filter`, mapped like OpenAI's.
 */
export async function azureChat(config: AzureConfig, request: ProviderChatRequest, options: CallOptions | undefined): Promise<ChatResult> {
  const response = await postAzureRequest(config, request, options, false);
  return readOpenAIChatResponse(config.provider, response, request.model, options?.signal);
}

import type { StreamEvent } from '@svc/core';
import { streamOpenAIEvents } from '../openai/openai-stream.js';
import type { CallOptions, ProviderChatRequest } from '../provider.js';
import { firstEventTimer, readSse } from '../shared/sse.js';
import type { AzureConfig } from './azure-config.js';
import { postAzureRequest } from './post-azure-request.js';

/**
 * A streaming chat completion. Resolves once Azure answered 2xx (failures before the first byte
 * reject here, so the caller can still fall back); later failures throw from the iterator.
 * Azure always sends a finish_reason before `[DONE]`, so a `[DONE]` without one is a truncation.
 */
export async function azureStream(config: AzureConfig, request: ProviderChatRequest, options: CallOptions | undefined): Promise<AsyncIterable<StreamEvent>> {
  const response = await postAzureRequest(config, request, options, true);
  return streamOpenAIEvents(config.provider, readSse(config.provider, response.body, options?.signal, firstEventTimer(response, options?.firstByteBy)), { requireFinish: true });
}

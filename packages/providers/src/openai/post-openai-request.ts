import type { CallOptions, ProviderChatRequest } from '../provider.js';
import { postJson } from '../shared/http.js';
import type { HttpResponse } from '../shared/http-client.js';
import type { OpenAIConfig } from './openai-config.js';
import { classifyOpenAIError } from './openai-error.js';
import { buildOpenAIRequest } from './openai-request.js';

/** POSTs one chat-completions request; resolves with the 2xx response, else rejects with a ProviderError (a `timeout` one when the headers miss `firstByteBy`). */
export function postOpenAIRequest(config: OpenAIConfig, request: ProviderChatRequest, options: CallOptions | undefined, stream: boolean): Promise<HttpResponse> {
  return postJson({
    provider: config.provider,
    http: config.http,
    url: config.url,
    headers: config.headers(options),
    body: buildOpenAIRequest(request, config.compat, stream),
    signal: options?.signal,
    onResponse: options?.onResponse,
    firstByteBy: options?.firstByteBy,
    classify: classifyOpenAIError,
  });
}

import { buildOpenAIRequest } from '../openai/openai-request.js';
import type { CallOptions, ProviderChatRequest } from '../provider.js';
import type { HttpResponse } from '../shared/http-client.js';
import { postJson } from '../shared/http.js';
import type { AzureConfig } from './azure-config.js';
import { classifyAzureError } from './azure-error.js';

/**
 * POSTs one chat-completions request to the deployment serving `request.model`; resolves with
 * the 2xx response, else rejects with a ProviderError.
 *
 * The body is built from the canonical model name, so the OpenAI rules keyed on it (reasoning
 * models get `max_completion_tokens` and no sampling controls) hold whatever the deployment is
 * called; only then is `model` replaced by the deployment name, which the v1 surface routes on
 * (the deployments surface ignores it, as it does for the official SDK that sends it too).
 */
export function postAzureRequest(config: AzureConfig, request: ProviderChatRequest, options: CallOptions | undefined, stream: boolean): Promise<HttpResponse> {
  const deployment = config.deployment(request.model);
  const body = buildOpenAIRequest(request, config.compat, stream);
  body.model = deployment;
  return postJson({
    provider: config.provider,
    http: config.http,
    url: config.url(deployment),
    headers: config.headers(options),
    body,
    signal: options?.signal,
    onResponse: options?.onResponse,
    firstByteBy: options?.firstByteBy,
    classify: classifyAzureError,
  });
}

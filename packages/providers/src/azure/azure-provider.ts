import type { OpenAICompatibility } from '../openai/openai-compatibility.js';
import { resolveCompatibility } from '../openai/openai-compatibility.js';
import { openAIEmbed } from '../openai/openai-embed.js';
import { openAIGenerateImages } from '../openai/openai-images.js';
import type { CallOptions, Provider, ProviderSettings } from '../provider.js';
import { resolveHttpClient } from '../shared/http.js';
import { KeyPool } from '../shared/key-pool.js';
import { azureChat } from './azure-chat.js';
import type { AzureConfig } from './azure-config.js';
import { classifyAzureError } from './azure-error.js';
import { azureStream } from './azure-stream.js';

/**
 * The newest GA dated data-plane inference version (the Azure OpenAI REST reference, checked
 * 2025-11: "latest GA release ... 2024-10-21"). Newer features (o-series `reasoning_effort`,
 * the `developer` role) need a preview version or the `v1` surface.
 */
export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

/** Settings of an Azure OpenAI resource. */
export interface AzureSettings extends ProviderSettings {
  /**
   * The resource endpoint WITHOUT `/openai`, e.g. `https://my-resource.openai.azure.com`
   * (or a Foundry `https://my-resource.cognitiveservices.azure.com`).
   */
  baseUrl: string;
  /**
   * `api-version` query value, default `AZURE_DEFAULT_API_VERSION`. `'v1'` selects the v1 surface
   * (GA since 2025-08): `POST {baseUrl}/openai/v1/chat/completions` with the deployment name as
   * `model` and no `api-version` at all. Any other value (e.g. `2025-04-01-preview`) is sent as is
   * to `POST {baseUrl}/openai/deployments/{deployment}/chat/completions?api-version=...`.
   */
  apiVersion?: string;
  /**
   * Upstream model name (catalog `upstreamId`) -> deployment name. A model missing here is
   * served by the deployment of the same name, Azure's default naming.
   */
  deployments?: Readonly<Record<string, string>>;
  /** Provider id. Default `azure`; set another to register several resources. */
  id?: string;
  /**
   * Wire-format switches, merged over Azure's defaults: no `service_tier` (Azure rejects unknown
   * arguments with 400 "Unrecognized request argument"), `reasoning_effort` only for reasoning
   * models, `developer` sent as `system` (the GA version predates the role).
   */
  compatibility?: OpenAICompatibility;
}

// Azure answers `encoding_format: base64` as OpenAI does (the official SDKs ask for it by default).
const azureCompatibility: OpenAICompatibility = { reasoningEffort: 'reasoning-models', unsupported: ['service_tier'], embeddingEncoding: 'base64' };

/**
 * The Azure OpenAI chat-completions adapter, id `azure`. Same wire format as OpenAI (request
 * building and response mapping are the OpenAI adapter's); differences: one URL per deployment,
 * the key in an `api-key` header (never `Authorization`), `prompt_filter_results` skipped, and
 * Azure error codes (`DeploymentNotFound` -> not_found, `content_filter` -> content_filter).
 * Keys rotate round-robin unless the call names one (`options.apiKey`). `embed` posts to the
 * deployment's `/embeddings` (`/openai/v1/embeddings` on the v1 surface) the same way, and
 * `generateImages` to its `/images/generations` with the OpenAI adapter's body.
 */
export function createAzureOpenAIProvider(settings: AzureSettings): Provider {
  const id = settings.id ?? 'azure';
  const pool = new KeyPool(settings.apiKeys);
  const base = settings.baseUrl.replace(/\/+$/, '');
  const apiVersion = settings.apiVersion ?? AZURE_DEFAULT_API_VERSION;
  const deployments = settings.deployments ?? {};
  const baseHeaders = settings.headers ?? {};
  const query = `?api-version=${encodeURIComponent(apiVersion)}`;
  // One URL shape for every deployment endpoint but chat (which `config.url` builds).
  const deploymentUrl = (deployment: string, path: string) =>
    apiVersion === 'v1' ? `${base}/openai/v1/${path}` : `${base}/openai/deployments/${encodeURIComponent(deployment)}/${path}${query}`;
  const config: AzureConfig = {
    provider: id,
    http: resolveHttpClient(settings),
    compat: resolveCompatibility(id, { ...azureCompatibility, ...settings.compatibility }),
    url: (deployment) =>
      apiVersion === 'v1' ? `${base}/openai/v1/chat/completions` : `${base}/openai/deployments/${encodeURIComponent(deployment)}/chat/completions${query}`,
    // Object.hasOwn: a model named like an Object.prototype key must not resolve to a function.
    deployment: (model) => (Object.hasOwn(deployments, model) ? deployments[model]! : model),
    headers(options: CallOptions | undefined) {
      const headers = options?.headers === undefined ? { ...baseHeaders } : { ...baseHeaders, ...options.headers };
      headers['api-key'] = options?.apiKey ?? pool.take().key;
      return headers;
    },
  };
  return {
    id,
    // The shared undici client keeps the first-byte bound itself: no signal of the caller's own per call.
    boundsFirstByte: config.http.boundsFirstByte === true,
    chat: (request, options) => azureChat(config, request, options),
    stream: (request, options) => azureStream(config, request, options),
    embed: (request, options) => {
      const deployment = config.deployment(request.model);
      return openAIEmbed(
        { provider: id, http: config.http, url: deploymentUrl(deployment, 'embeddings'), headers: config.headers(options), model: deployment, compat: config.compat, classify: classifyAzureError },
        request,
        options,
      );
    },
    generateImages: (request, options) => {
      const deployment = config.deployment(request.model);
      return openAIGenerateImages(
        { provider: id, http: config.http, url: deploymentUrl(deployment, 'images/generations'), headers: config.headers(options), model: deployment, classify: classifyAzureError },
        request,
        options,
      );
    },
  };
}

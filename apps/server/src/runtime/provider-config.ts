import type { BedrockConfig, CompatibleProviderConfig, ProviderRegistryConfig, VertexConfig } from '@svc/providers';
import type { ConfigFile } from './config-file.js';
import { ConfigError, type Env } from './env.js';

/** Merges `SVC_CONFIG` and `<PROVIDER>_*` variables (the environment wins) into registry config. */
export function providerConfig(env: Env, file: ConfigFile | undefined): { config: ProviderRegistryConfig; mockEnabled: boolean } {
  const merged = new Map<string, { apiKeys: string[]; baseUrl?: string }>();
  for (const [id, entry] of Object.entries(file?.providers ?? {})) {
    if (entry.api_keys && entry.api_keys.length > 0) merged.set(id, { apiKeys: entry.api_keys, ...(entry.base_url ? { baseUrl: entry.base_url } : {}) });
  }
  for (const [id, entry] of Object.entries(env.providers)) merged.set(id, { ...merged.get(id), ...entry });
  const compatible: CompatibleProviderConfig[] = [];
  const config: ProviderRegistryConfig = { compatible };
  for (const [id, entry] of merged) {
    if (id === 'openai' || id === 'anthropic' || id === 'gemini' || id === 'cohere' || id === 'deepgram' || id === 'elevenlabs') config[id] = entry;
    else if (id === 'azure') {
      if (!entry.baseUrl) throw new ConfigError('AZURE_BASE_URL', 'is required for Azure OpenAI: the resource endpoint, e.g. https://my-resource.openai.azure.com');
      const fromFile = file?.providers?.azure;
      const apiVersion = env.AZURE_API_VERSION ?? fromFile?.api_version;
      config.azure = {
        apiKeys: entry.apiKeys,
        baseUrl: entry.baseUrl,
        ...(apiVersion ? { apiVersion } : {}),
        ...(fromFile?.deployments ? { deployments: fromFile.deployments } : {}),
      };
    } else compatible.push({ id, apiKeys: entry.apiKeys, ...(entry.baseUrl ? { baseUrl: entry.baseUrl } : {}) });
  }
  const bedrock = bedrockConfig(env);
  if (bedrock) config.bedrock = bedrock;
  const vertex = vertexConfig(env);
  if (vertex) config.vertex = vertex;
  const anyProvider = merged.size > 0 || bedrock !== undefined || vertex !== undefined;
  const mockEnabled = env.SVC_MOCK_PROVIDER ?? file?.mock?.enabled ?? !anyProvider;
  if (mockEnabled) {
    config.mock = {
      enabled: true,
      latencyMs: env.SVC_MOCK_LATENCY_MS || (file?.mock?.latency_ms ?? 0),
      tokensPerSecond: env.SVC_MOCK_TOKENS_PER_SECOND || (file?.mock?.tokens_per_second ?? 0),
    };
  }
  return { config, mockEnabled };
}

/**
 * Bedrock is on with `BEDROCK_API_KEY` (a pool, comma-separated) or SigV4 credentials
 * (`AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY`, optional `AWS_SESSION_TOKEN`) AND an explicit
 * `BEDROCK_REGION`: ambient AWS credentials alone never switch a provider on.
 */
function bedrockConfig(env: Env): BedrockConfig | undefined {
  const apiKeys = (env.BEDROCK_API_KEY ?? '').split(',').map((k) => k.trim()).filter(Boolean);
  const hasSigV4 = Boolean(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY);
  if (apiKeys.length === 0 && !(hasSigV4 && env.BEDROCK_REGION)) return undefined;
  const region = env.BEDROCK_REGION ?? env.AWS_REGION;
  if (!region) throw new ConfigError('BEDROCK_REGION', 'is required with BEDROCK_API_KEY: the AWS region of Bedrock, e.g. us-east-1');
  return {
    region,
    ...(apiKeys.length > 0 ? { apiKeys } : {}),
    ...(hasSigV4
      ? { credentials: [{ accessKeyId: env.AWS_ACCESS_KEY_ID!, secretAccessKey: env.AWS_SECRET_ACCESS_KEY!, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) }] }
      : {}),
    ...(env.BEDROCK_BASE_URL ? { baseUrl: env.BEDROCK_BASE_URL } : {}),
  };
}

/** Vertex is on with `VERTEX_PROJECT` and `VERTEX_ACCESS_TOKEN` (minted by the operator, e.g. `gcloud auth print-access-token`). */
function vertexConfig(env: Env): VertexConfig | undefined {
  if (!env.VERTEX_PROJECT && !env.VERTEX_ACCESS_TOKEN) return undefined;
  if (!env.VERTEX_PROJECT) throw new ConfigError('VERTEX_PROJECT', 'is required with VERTEX_ACCESS_TOKEN: the Google Cloud project id');
  if (!env.VERTEX_ACCESS_TOKEN) throw new ConfigError('VERTEX_ACCESS_TOKEN', 'is required with VERTEX_PROJECT: an OAuth access token for Vertex AI');
  return {
    project: env.VERTEX_PROJECT,
    location: env.VERTEX_LOCATION,
    accessToken: env.VERTEX_ACCESS_TOKEN,
    ...(env.VERTEX_BASE_URL ? { baseUrl: env.VERTEX_BASE_URL } : {}),
  };
}

import { createAnthropicProvider } from './anthropic/anthropic-provider.js';
import { createAzureOpenAIProvider } from './azure/azure-provider.js';
import type { BedrockCredentials } from './bedrock/bedrock-auth.js';
import { bedrockPoolKeys, createBedrockProvider } from './bedrock/bedrock-provider.js';
import { loadBedrockWire } from './bedrock/bedrock-wire.js';
import { createCohereProvider } from './cohere/cohere-provider.js';
import { createDeepgramProvider } from './deepgram/deepgram-provider.js';
import { createElevenLabsProvider } from './elevenlabs/elevenlabs-provider.js';
import { createGeminiProvider } from './gemini/gemini-provider.js';
import { createMockProvider } from './mock/mock-provider.js';
import { compatibleVendors } from './openai/compatible-vendors.js';
import type { OpenAICompatibility } from './openai/openai-compatibility.js';
import { createOpenAIProvider } from './openai/openai-provider.js';
import { createVertexProvider } from './vertex/vertex-provider.js';
import type { Provider } from './provider.js';
import { type KeyCooldownGate, withKeyFallthrough } from './shared/key-fallthrough.js';
import type { HttpClient } from './shared/http-client.js';
import { resolveHttpClient } from './shared/http.js';
import { SecretSet, withSecretScrubbing } from './shared/scrub-secrets.js';

/** Keys and endpoint of one first-party provider. A block with no keys counts as absent. */
export interface ProviderKeyConfig {
  /** The key pool; comma-separated env values become several keys. */
  apiKeys: readonly string[];
  /** Endpoint override (tests, proxies, self-hosted upstreams). */
  baseUrl?: string;
}

/** A vendor that speaks the OpenAI chat-completions wire format. */
export interface CompatibleProviderConfig {
  /** Lowercase provider id, e.g. `groq`; known ids get their public base URL (see `compatibleVendors`). */
  id: string;
  /** Base URL including the version path; required for ids not in `compatibleVendors`. */
  baseUrl?: string;
  /**
   * The key pool. May be empty for keyless local servers: then the entry is registered only when
   * `baseUrl` is given or the vendor is known to be keyless (ollama).
   */
  apiKeys?: readonly string[];
  /** Overrides the vendor's known wire-format differences. */
  compatibility?: OpenAICompatibility;
}

/** Azure OpenAI: one resource endpoint (required), its API version and deployment names. */
export interface AzureKeyConfig extends ProviderKeyConfig {
  baseUrl: string;
  apiVersion?: string;
  /** Canonical upstream model name -> deployment name; a model not listed uses its own name. */
  deployments?: Readonly<Record<string, string>>;
}

/** AWS Bedrock: a region and SigV4 credential sets and/or Bedrock API keys (one pool). */
export interface BedrockConfig {
  region: string;
  credentials?: readonly BedrockCredentials[];
  apiKeys?: readonly string[];
  baseUrl?: string;
}

/** Google Vertex AI: project, location and an OAuth access token supplied by the operator. */
export interface VertexConfig {
  project: string;
  location: string;
  accessToken: string | (() => Promise<string>);
  baseUrl?: string;
}

export interface ProviderRegistryConfig {
  openai?: ProviderKeyConfig;
  anthropic?: ProviderKeyConfig;
  gemini?: ProviderKeyConfig;
  azure?: AzureKeyConfig;
  cohere?: ProviderKeyConfig;
  /** Deepgram speech to text and text to speech; `baseUrl` without `/v1`. */
  deepgram?: ProviderKeyConfig;
  /** ElevenLabs text to speech and speech to text; `baseUrl` without `/v1`. */
  elevenlabs?: ProviderKeyConfig;
  bedrock?: BedrockConfig;
  vertex?: VertexConfig;
  compatible?: readonly CompatibleProviderConfig[];
  /** Cooldowns for keys that keep failing, shared across instances; absent: none. */
  keyCooldowns?: KeyCooldownGate;
  /** The built-in deterministic provider, id `mock`. */
  mock?: { enabled: boolean; latencyMs?: number; tokensPerSecond?: number };
  /** The HTTP transport of every HTTP provider. Default: the shared undici client. */
  http?: HttpClient;
  /** An injected fetch for every HTTP provider (tests, instrumentation), used when `http` is absent. */
  fetch?: typeof globalThis.fetch;
}

/** A configured provider by id: what the call stage and an organisation's own keys (BYOK) need of a registry. */
export interface ProviderLookup {
  get(id: string): Provider | undefined;
}

/** The configured providers by id. */
export interface ProviderRegistry extends ProviderLookup {
  /** Ids of every configured provider. */
  ids(): ReadonlySet<string>;
}

const providerIdPattern = /^[a-z0-9][a-z0-9_-]*$/;

type Transport = { http: HttpClient };

/** The Vertex adapter; a token minted by the configured function joins the registry's secrets. */
function vertexProvider(vertex: VertexConfig, secrets: SecretSet, transport: Transport): Provider {
  const { project, location, accessToken: configured, baseUrl } = vertex;
  // A minted token is a secret from the moment it exists.
  const accessToken =
    typeof configured === 'string'
      ? configured
      : async () => {
          const token = await configured();
          secrets.add(token);
          return token;
        };
  return createVertexProvider({ project, location, accessToken, ...(baseUrl ? { baseUrl } : {}), ...transport });
}

/** An OpenAI-compatible vendor's adapter; undefined for a known vendor configured without keys or URL (skipped). */
function compatibleProvider(entry: CompatibleProviderConfig, transport: Transport): Provider | undefined {
  if (!providerIdPattern.test(entry.id)) {
    throw new Error(`Provider id '${entry.id}' is invalid: use lowercase letters, digits, '-' or '_'.`);
  }
  // Object.hasOwn: a vendor id like `constructor` must not match the prototype.
  const known = Object.hasOwn(compatibleVendors, entry.id) ? compatibleVendors[entry.id] : undefined;
  const baseUrl = entry.baseUrl ?? known?.baseUrl;
  if (baseUrl === undefined) {
    throw new Error(
      `Provider '${entry.id}' needs a baseUrl: it is not a known OpenAI-compatible vendor (${Object.keys(compatibleVendors).join(', ')}).`,
    );
  }
  const apiKeys = entry.apiKeys ?? [];
  if (apiKeys.length === 0 && entry.baseUrl === undefined && known?.keyless !== true) return undefined;
  const compatibility = known?.compatibility === undefined ? entry.compatibility : { ...known.compatibility, ...entry.compatibility };
  return createOpenAIProvider({ id: entry.id, apiKeys, baseUrl, ...transport, compatibility });
}

/**
 * Builds every configured provider once, at start. Throws (with a message naming the provider)
 * on configuration that can never work: an unknown compatible vendor without a base URL, a
 * malformed id, or the same id twice.
 */
export function createProviderRegistry(config: ProviderRegistryConfig): ProviderRegistry {
  const providers = new Map<string, Provider>();
  // Every credential of this registry, scrubbed from every provider's errors: a proxy in front of
  // one vendor may echo any header it was sent.
  const secrets = registrySecrets(config);
  const add = (provider: Provider, keys: readonly string[] = []): void => {
    if (providers.has(provider.id)) throw new Error(`Provider '${provider.id}' is configured twice.`);
    providers.set(provider.id, withSecretScrubbing(withKeyFallthrough(provider, keys, config.keyCooldowns), secrets));
  };
  // One client for every provider: the injected one, the injected fetch wrapped, or the shared default.
  const transport = { http: resolveHttpClient(config) };

  if (hasKeys(config.openai)) add(createOpenAIProvider({ apiKeys: config.openai.apiKeys, baseUrl: config.openai.baseUrl, ...transport }), config.openai.apiKeys);
  if (hasKeys(config.anthropic)) add(createAnthropicProvider({ apiKeys: config.anthropic.apiKeys, baseUrl: config.anthropic.baseUrl, ...transport }), config.anthropic.apiKeys);
  if (hasKeys(config.gemini)) add(createGeminiProvider({ apiKeys: config.gemini.apiKeys, baseUrl: config.gemini.baseUrl, ...transport }), config.gemini.apiKeys);
  if (hasKeys(config.azure)) {
    const { apiKeys, baseUrl, apiVersion, deployments } = config.azure;
    add(createAzureOpenAIProvider({ apiKeys, baseUrl, ...(apiVersion ? { apiVersion } : {}), ...(deployments ? { deployments: { ...deployments } } : {}), ...transport }), apiKeys);
  }
  if (hasKeys(config.cohere)) add(createCohereProvider({ apiKeys: config.cohere.apiKeys, baseUrl: config.cohere.baseUrl, ...transport }), config.cohere.apiKeys);
  if (hasKeys(config.deepgram)) add(createDeepgramProvider({ apiKeys: config.deepgram.apiKeys, baseUrl: config.deepgram.baseUrl, ...transport }), config.deepgram.apiKeys);
  if (hasKeys(config.elevenlabs)) add(createElevenLabsProvider({ apiKeys: config.elevenlabs.apiKeys, baseUrl: config.elevenlabs.baseUrl, ...transport }), config.elevenlabs.apiKeys);
  if (config.bedrock) {
    const { region, credentials, apiKeys, baseUrl } = config.bedrock;
    const settings = { region, ...(credentials ? { credentials } : {}), ...(apiKeys ? { apiKeys } : {}), ...(baseUrl ? { baseUrl } : {}), ...transport };
    add(createBedrockProvider(settings), bedrockPoolKeys(settings));
  }
  if (config.vertex) add(vertexProvider(config.vertex, secrets, transport));

  for (const entry of config.compatible ?? []) {
    const compatible = compatibleProvider(entry, transport);
    if (compatible) add(compatible, entry.apiKeys ?? []);
  }

  if (config.mock?.enabled) add(createMockProvider({ latencyMs: config.mock.latencyMs, tokensPerSecond: config.mock.tokensPerSecond }));

  const ids: ReadonlySet<string> = new Set(providers.keys());
  return {
    get: (id) => providers.get(id),
    ids: () => ids,
  };
}

/**
 * Resolves once the code the configured providers load beside the package is loaded (Bedrock's
 * Smithy signing: `createProviderRegistry` starts it); rejects when it cannot be. A start awaits
 * it, so a broken install stops the start instead of failing calls.
 */
export async function loadConfiguredProviders(config: Pick<ProviderRegistryConfig, 'bedrock'>): Promise<void> {
  if (config.bedrock) await loadBedrockWire();
}

/** Every key, SigV4 secret and static token the configuration holds. */
function registrySecrets(config: ProviderRegistryConfig): SecretSet {
  const blocks = [config.openai, config.anthropic, config.gemini, config.azure, config.cohere, config.deepgram, config.elevenlabs, config.bedrock, ...(config.compatible ?? [])];
  const secrets = new SecretSet(blocks.flatMap((block) => block?.apiKeys ?? []));
  for (const credentials of config.bedrock?.credentials ?? []) {
    secrets.add(credentials.secretAccessKey);
    secrets.add(credentials.sessionToken);
  }
  if (typeof config.vertex?.accessToken === 'string') secrets.add(config.vertex.accessToken);
  return secrets;
}

function hasKeys(block: ProviderKeyConfig | undefined): block is ProviderKeyConfig {
  return block !== undefined && block.apiKeys.length > 0;
}

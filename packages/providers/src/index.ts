export type * from './provider.js';
export { KeyPool, keyFingerprint } from './shared/key-pool.js';
export { BATCH_KEY_GONE, isBatchKeyGone } from './shared/batch-key.js';
export type { HttpClient, HttpHeaders, HttpRequest, HttpResponse } from './shared/http-client.js';
export { createUndiciHttpClient, type UndiciHttpClient, type UndiciHttpClientOptions } from './shared/undici-http-client.js';
export { fetchHttpClient } from './shared/fetch-http-client.js';

export { createOpenAIProvider, defaultOpenAIBaseUrl, type OpenAIProviderSettings } from './openai/openai-provider.js';
export type { OpenAICompatibility, UnsupportedField } from './openai/openai-compatibility.js';
export { compatibleVendors, type CompatibleVendorDefaults } from './openai/compatible-vendors.js';
export { isOpenAIReasoningModel } from './openai/openai-request.js';
export { createAnthropicProvider } from './anthropic/anthropic-provider.js';
export { createGeminiProvider } from './gemini/gemini-provider.js';
export { AZURE_DEFAULT_API_VERSION, type AzureSettings, createAzureOpenAIProvider } from './azure/azure-provider.js';
export { COHERE_BASE_URL, createCohereProvider } from './cohere/cohere-provider.js';
export { DEEPGRAM_BASE_URL, createDeepgramProvider } from './deepgram/deepgram-provider.js';
export { ELEVENLABS_BASE_URL, createElevenLabsProvider } from './elevenlabs/elevenlabs-provider.js';
export { speechContentTypes } from './shared/speech-audio.js';
export type { BedrockCredentials } from './bedrock/bedrock-auth.js';
export { type BedrockSettings, bedrockPoolKeys, createBedrockProvider } from './bedrock/bedrock-provider.js';
export { type VertexSettings, createVertexProvider } from './vertex/vertex-provider.js';
export { createMockProvider, type MockProviderSettings } from './mock/mock-provider.js';
export {
  createProviderRegistry,
  loadConfiguredProviders,
  type AzureKeyConfig,
  type BedrockConfig,
  type CompatibleProviderConfig,
  type ProviderKeyConfig,
  type ProviderLookup,
  type ProviderRegistry,
  type ProviderRegistryConfig,
  type VertexConfig,
} from './registry.js';
export { REDACTED, SecretSet, scrubError, withSecretScrubbing } from './shared/scrub-secrets.js';
export { type KeyAttempt, type KeyCooldownGate, type KeyPoolCallOptions, withKeyFallthrough } from './shared/key-fallthrough.js';

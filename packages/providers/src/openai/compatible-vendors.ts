import type { OpenAICompatibility } from './openai-compatibility.js';

/** Public defaults of a vendor that speaks the OpenAI chat-completions wire format. */
export interface CompatibleVendorDefaults {
  /** Base URL including the version path; the adapter appends `/chat/completions`. */
  baseUrl: string;
  compatibility?: OpenAICompatibility;
  /** True when the vendor is usually self-hosted without keys (no Authorization header needed). */
  keyless?: boolean;
}

/**
 * Known OpenAI-compatible vendors by provider id. A configured `baseUrl` always wins; these are
 * only the public endpoints used when none is given.
 */
export const compatibleVendors: Readonly<Record<string, CompatibleVendorDefaults>> = {
  // Vendors without an embeddings endpoint say so, so `embed` is left off their provider.
  // Groq serves Whisper on OpenAI's `/audio/transcriptions` and `/audio/translations`.
  groq: { baseUrl: 'https://api.groq.com/openai/v1', compatibility: { embeddings: false, transcriptions: true } },
  together: { baseUrl: 'https://api.together.xyz/v1' },
  fireworks: { baseUrl: 'https://api.fireworks.ai/inference/v1' },
  deepseek: { baseUrl: 'https://api.deepseek.com/v1', compatibility: { embeddings: false } },
  xai: { baseUrl: 'https://api.x.ai/v1', compatibility: { embeddings: false } },
  // Mistral validates bodies strictly (extra fields are a 422) and names the seed differently;
  // its /v1/embeddings takes `encoding_format` and calls the vector length `output_dimension`.
  mistral: {
    baseUrl: 'https://api.mistral.ai/v1',
    compatibility: {
      streamOptions: false,
      seedField: 'random_seed',
      unsupported: ['user', 'logprobs', 'reasoning_effort', 'service_tier'],
      embeddingEncoding: 'base64',
      embeddingDimensionsField: 'output_dimension',
    },
  },
  cerebras: { baseUrl: 'https://api.cerebras.ai/v1', compatibility: { embeddings: false } },
  // Perplexity serves chat completions at the root, without a version segment.
  perplexity: { baseUrl: 'https://api.perplexity.ai' },
  openrouter: { baseUrl: 'https://openrouter.ai/api/v1' },
  // 127.0.0.1 rather than localhost: Node resolves localhost to ::1 first and Ollama binds IPv4.
  // Its /v1/embeddings takes `encoding_format` and `dimensions` (older servers ignore them).
  ollama: { baseUrl: 'http://127.0.0.1:11434/v1', keyless: true, compatibility: { embeddingEncoding: 'base64' } },
};

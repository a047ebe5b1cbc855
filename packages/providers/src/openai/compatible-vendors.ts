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
  groq: { baseUrl: 'https://api.groq.com/openai/v1' },
  together: { baseUrl: 'https://api.together.xyz/v1' },
  fireworks: { baseUrl: 'https://api.fireworks.ai/inference/v1' },
  deepseek: { baseUrl: 'https://api.deepseek.com/v1' },
  xai: { baseUrl: 'https://api.x.ai/v1' },
  // Mistral validates bodies strictly (extra fields are a 422) and names the seed differently.
  mistral: {
    baseUrl: 'https://api.mistral.ai/v1',
    compatibility: { streamOptions: false, seedField: 'random_seed', unsupported: ['user', 'logprobs', 'reasoning_effort', 'service_tier'] },
  },
  cerebras: { baseUrl: 'https://api.cerebras.ai/v1' },
  // Perplexity serves chat completions at the root, without a version segment.
  perplexity: { baseUrl: 'https://api.perplexity.ai' },
  openrouter: { baseUrl: 'https://openrouter.ai/api/v1' },
  // 127.0.0.1 rather than localhost: Node resolves localhost to ::1 first and Ollama binds IPv4.
  ollama: { baseUrl: 'http://127.0.0.1:11434/v1', keyless: true },
};

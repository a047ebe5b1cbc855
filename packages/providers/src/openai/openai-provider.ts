import type { CallOptions, Provider, ProviderSettings } from '../provider.js';
import { resolveHttpClient } from '../shared/http.js';
import { KeyPool } from '../shared/key-pool.js';
import { openAIChat } from './openai-chat.js';
import { type OpenAICompatibility, resolveCompatibility } from './openai-compatibility.js';
import type { OpenAIConfig } from './openai-config.js';
import { openAIStream } from './openai-stream.js';

/** Settings of an OpenAI or OpenAI-compatible provider. */
export interface OpenAIProviderSettings extends ProviderSettings {
  /** Provider id (`<provider>` of model slugs). Default `openai`; e.g. `groq` for a compatible vendor. */
  id?: string;
  /**
   * Base URL INCLUDING the version path; `/chat/completions` is appended.
   * Default `https://api.openai.com/v1`.
   */
  baseUrl?: string;
  /** Vendor differences from the OpenAI wire format. */
  compatibility?: OpenAICompatibility;
}

export const defaultOpenAIBaseUrl = 'https://api.openai.com/v1';

/**
 * The OpenAI chat-completions adapter; with `id`, `baseUrl` and `compatibility` it also serves
 * every vendor that speaks the same wire format. Keys rotate round-robin unless the call names
 * one (`options.apiKey`). With no keys at all (a local server such as Ollama or vLLM) no
 * Authorization header is sent.
 */
export function createOpenAIProvider(settings: OpenAIProviderSettings): Provider {
  const id = settings.id ?? 'openai';
  const pool = settings.apiKeys.length > 0 ? new KeyPool(settings.apiKeys) : undefined;
  const baseHeaders = settings.headers ?? {};
  const config: OpenAIConfig = {
    provider: id,
    url: `${(settings.baseUrl ?? defaultOpenAIBaseUrl).replace(/\/+$/, '')}/chat/completions`,
    http: resolveHttpClient(settings),
    compat: resolveCompatibility(id, settings.compatibility),
    headers(options: CallOptions | undefined): Record<string, string> {
      const key = options?.apiKey ?? pool?.take().key;
      const headers = options?.headers === undefined ? { ...baseHeaders } : { ...baseHeaders, ...options.headers };
      if (key !== undefined) headers.authorization = `Bearer ${key}`;
      return headers;
    },
  };
  return {
    id,
    chat: (request, options) => openAIChat(config, request, options),
    stream: (request, options) => openAIStream(config, request, options),
  };
}

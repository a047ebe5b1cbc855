import type { CallOptions, ProviderSettings } from '../provider.js';
import type { HttpClient } from './http-client.js';
import { resolveHttpClient } from './http.js';
import { KeyPool } from './key-pool.js';

/** Where a provider's calls go and with which headers: one per provider instance. */
export interface KeyedTarget {
  provider: string;
  http: HttpClient;
  /** Base URL without a trailing slash. */
  base: string;
  /** `settings.headers`, then `options.headers`, then the key's header(s), which nothing overrides. */
  headers(options?: CallOptions): Record<string, string>;
}

/**
 * The target of a provider whose key goes in its own header (Deepgram `Authorization: Token`,
 * ElevenLabs `xi-api-key`): `options.apiKey` when the call names one (BYOK, the key pool's
 * fallthrough), else the pool's next key in turn.
 */
export function keyedTarget(provider: string, settings: ProviderSettings, defaultBase: string, authorize: (key: string) => Record<string, string>): KeyedTarget {
  const pool = new KeyPool(settings.apiKeys);
  return {
    provider,
    http: resolveHttpClient(settings),
    base: (settings.baseUrl ?? defaultBase).replace(/\/+$/, ''),
    headers: (options) => ({ ...settings.headers, ...options?.headers, ...authorize(options?.apiKey ?? pool.take().key) }),
  };
}

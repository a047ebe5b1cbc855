import { type ProviderErrorKind, isProviderError } from '@svc/core';
import { flagsOf, wrapOptionalCalls } from './wrap-optional-calls.js';
import type { CallOptions, Provider, ProviderChatRequest, RealtimeConnectOptions, RealtimeRequest } from '../provider.js';
import { KeyPool } from './key-pool.js';

/**
 * Failures that belong to one key rather than to the provider: another key of the pool may
 * well succeed (its own rate limit, its own credit, a revoked key).
 */
const keyKinds: ReadonlySet<ProviderErrorKind> = new Set(['rate_limit', 'billing', 'authentication']);

/**
 * Shared memory of failing keys (@svc/resilience's KeyCooldowns over the kv): a key that keeps
 * failing is skipped for a while by every instance. Keys are named by index, never by secret.
 */
export interface KeyCooldownGate {
  /** Every key index in the order to try: usable keys round-robin, then cooling ones (soonest to recover first). */
  order(provider: string, keyCount: number): Promise<number[]>;
  failure(provider: string, index: number, options?: { retryAfterMs?: number }): Promise<unknown>;
  success(provider: string, index: number): Promise<void>;
}

/** One key's try within a single provider call. */
export interface KeyAttempt {
  keyIndex: number;
  outcome: 'ok' | 'error';
  errorKind?: ProviderErrorKind;
  upstreamStatus?: number;
}

/** Call options with a per-key observer (the pipeline records key indexes in the decision). */
export interface KeyPoolCallOptions extends CallOptions {
  onKeyAttempt?: (attempt: KeyAttempt) => void;
}

/**
 * Wraps a provider so a 402, 429 or 401 on one key of its pool falls through to the next key
 * within the same request, round-robin from where the pool stands. Streams fall through only
 * before their first byte (`stream()` rejects then); `embed`, `moderate`, `speech` (before the
 * audio is read), `transcribe` and `recognize`, where the provider has them, fall through like
 * `chat`. A caller that pins `apiKey` (BYOK) gets exactly that key; native `batches` name the key
 * that submitted each batch, so they are passed through as they are.
 */
export function withKeyFallthrough(provider: Provider, keys: readonly string[], cooldowns?: KeyCooldownGate): Provider {
  if (keys.length < 2) return provider;
  const pool = new KeyPool(keys);

  /**
   * Key indexes for one request: round-robin from where the pool stands, or the cooldown gate's
   * order (usable keys round-robin, cooling ones last, never left out).
   */
  async function order(): Promise<number[]> {
    if (cooldowns) return cooldowns.order(provider.id, pool.size);
    const start = pool.take().index;
    return Array.from({ length: pool.size }, (_, i) => (start + i) % pool.size);
  }

  async function eachKey<T>(options: KeyPoolCallOptions, run: (options: CallOptions) => Promise<T>): Promise<T> {
    let lastError: unknown;
    for (const index of await order()) {
      const key = keys[index]!;
      try {
        const value = await run(Object.assign({}, options, { apiKey: key })); // `{ ...options, apiKey }` is a slow copy on V8
        options.onKeyAttempt?.({ keyIndex: index, outcome: 'ok' });
        if (cooldowns) void cooldowns.success(provider.id, index);
        return value;
      } catch (error) {
        const kind = isProviderError(error) ? error.kind : undefined;
        options.onKeyAttempt?.({
          keyIndex: index,
          outcome: 'error',
          ...(kind ? { errorKind: kind } : {}),
          ...(isProviderError(error) && error.upstreamStatus !== undefined ? { upstreamStatus: error.upstreamStatus } : {}),
        });
        if (kind === undefined || !keyKinds.has(kind) || options.signal?.aborted) throw error;
        if (cooldowns) {
          const retryAfterMs = isProviderError(error) ? error.retryAfterMs : undefined;
          void cooldowns.failure(provider.id, index, retryAfterMs === undefined ? {} : { retryAfterMs });
        }
        lastError = error;
      }
    }
    throw lastError;
  }

  const wrapped: Provider = {
    id: provider.id,
    ...flagsOf(provider),
    chat: (request: ProviderChatRequest, options: KeyPoolCallOptions = {}) =>
      options.apiKey ? provider.chat(request, options) : eachKey(options, (o) => provider.chat(request, o)),
    stream: (request: ProviderChatRequest, options: KeyPoolCallOptions = {}) =>
      options.apiKey ? provider.stream(request, options) : eachKey(options, (o) => provider.stream(request, o)),
  };
  // Every other endpoint falls through the same way.
  wrapOptionalCalls<KeyPoolCallOptions>(provider, wrapped, (call) => (request, options = {}) => (options.apiKey ? call(request, options) : eachKey(options, (o) => call(request, o))));
  // A realtime session falls through like a call: a key refused at the upgrade (429, 402, 401) gives way to the next.
  const realtime = provider.realtime?.bind(provider);
  if (realtime) {
    wrapped.realtime = (request: RealtimeRequest, options: RealtimeConnectOptions & Pick<KeyPoolCallOptions, 'onKeyAttempt'> = {}) =>
      options.apiKey ? realtime(request, options) : eachKey(options, (o) => realtime(request, { ...options, ...o }));
  }
  return withBatchesOf(provider, wrapped);
}

/** `wrapped` with `provider`'s native batches as they are: each names the key that submitted it. */
function withBatchesOf(provider: Provider, wrapped: Provider): Provider {
  if (provider.batches) wrapped.batches = provider.batches;
  return wrapped;
}

import type { ChatRequest, ChatResult, StreamEvent } from '@svc/core';
import type { HttpClient } from './shared/http-client.js';

/** The chat request a provider receives: the canonical request with the upstream model resolved. */
export interface ProviderChatRequest extends Omit<ChatRequest, 'model' | 'routingHints' | 'routingOverride' | 'svc'> {
  /** The provider's own model name (catalog `upstreamId`). */
  model: string;
}

/** Per-call settings the caller (the pipeline's call stage) controls. */
export interface CallOptions {
  /** Aborts the upstream request: client disconnect or deadline. */
  signal?: AbortSignal;
  /** Which key of the provider's pool to use; the adapter picks round-robin when absent. */
  apiKey?: string;
  /** Extra headers to forward upstream. */
  headers?: Record<string, string>;
}

/**
 * One provider behind one interface. Adapters throw `ProviderError` for every upstream failure.
 *
 * `stream()` resolves only once the upstream has answered 200 and the stream has begun, so a
 * failure before the first byte rejects the promise (and fallback can still happen); a failure
 * after that is thrown from the iterator.
 */
export interface Provider {
  /** Lowercase provider id, the `<provider>` of `<provider>/<model>` slugs. */
  readonly id: string;
  /**
   * False when the provider ignores `n` and always answers one choice (Anthropic); the pipeline
   * then replicates the first choice, in streams too. Absent means `n` is honoured.
   */
  readonly multipleChoices?: boolean;
  chat(request: ProviderChatRequest, options?: CallOptions): Promise<ChatResult>;
  stream(request: ProviderChatRequest, options?: CallOptions): Promise<AsyncIterable<StreamEvent>>;
}

/** What every adapter factory takes. */
export interface ProviderSettings {
  /** Keys of the pool; at least one. */
  apiKeys: readonly string[];
  /** Base URL; each provider documents whether it includes the version path. */
  baseUrl?: string;
  /** The HTTP transport (tests, proxies, a tuned pool). Default: the shared undici client. */
  http?: HttpClient;
  /** An injected fetch, used through `fetchHttpClient` when `http` is absent (tests, instrumentation). */
  fetch?: typeof globalThis.fetch;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

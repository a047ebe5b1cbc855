import type { ChatRequest, ChatResult, StreamEvent } from '@svc/core';
import type { ModerationRequest, ModerationResult, SpeechRequest, SpeechResult } from './provider-audio.js';
import type { ImageGenerationRequest, ImageGenerationResult } from './provider-images.js';
import type { RealtimeConnectOptions, RealtimeRequest, RealtimeSocket } from './provider-realtime.js';
import type { Recognition, RecognitionRequest, TranscriptionRequest, TranscriptionResult } from './provider-transcription.js';
import type { HttpClient } from './shared/http-client.js';

export type * from './provider-audio.js';
export type * from './provider-images.js';
export type * from './provider-transcription.js';
export type * from './provider-realtime.js';

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
  /**
   * Called once the upstream's response headers have arrived (any status): a non-stream call's
   * time to first byte, so a hung upstream can be abandoned without bounding a long answer.
   */
  onResponse?: () => void;
  /**
   * When the first byte must have come, a `performance.now()` time: a JSON call's response
   * headers, a stream's first event. Past it the upstream request is abandoned and the call fails
   * with a `timeout` ProviderError. Read only by providers whose `boundsFirstByte` is true; the
   * caller bounds the others with a signal of its own.
   */
  firstByteBy?: number;
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
  /**
   * True when `chat()` and `stream()` keep `CallOptions.firstByteBy` themselves (no signal of the
   * caller's own needed for it).
   */
  readonly boundsFirstByte?: boolean;
  chat(request: ProviderChatRequest, options?: CallOptions): Promise<ChatResult>;
  stream(request: ProviderChatRequest, options?: CallOptions): Promise<AsyncIterable<StreamEvent>>;
  /**
   * Embeds every text of `request.input`; present only on providers that serve embeddings.
   * Resolves with one vector per input, in input order, however the adapter batched the calls.
   * Rejects with a `ProviderError` like `chat()`.
   */
  embed?(request: EmbeddingRequest, options?: CallOptions): Promise<EmbeddingResult>;
  /** Classifies texts or images for policy violations; present only on providers that moderate (OpenAI). */
  moderate?(request: ModerationRequest, options?: CallOptions): Promise<ModerationResult>;
  /**
   * Synthesises speech; present only on providers that serve text-to-speech (OpenAI, Deepgram,
   * ElevenLabs). Resolves once the upstream answered 2xx, before the audio is read; rejects with
   * a `ProviderError`.
   */
  speech?(request: SpeechRequest, options?: CallOptions): Promise<SpeechResult>;
  /**
   * Speech to text (or to English) in OpenAI's wire formats, passed through; present only on
   * providers that speak them (OpenAI, Groq).
   */
  transcribe?(request: TranscriptionRequest, options?: CallOptions): Promise<TranscriptionResult>;
  /**
   * Generates images, answered as base64 whatever the client asked for; present only on
   * providers that serve image generation (OpenAI, Azure OpenAI). Rejects with a `ProviderError`.
   */
  generateImages?(request: ImageGenerationRequest, options?: CallOptions): Promise<ImageGenerationResult>;
  /**
   * Opens a realtime (speech-to-speech) WebSocket to the upstream; present only on providers
   * that serve one (OpenAI). Resolves once the upstream accepted the upgrade, with the socket
   * paused (call `resume()` once listening, so no early event is lost); rejects with a
   * `ProviderError` (the upstream's refusal status and body classified, or a transport failure).
   */
  realtime?(request: RealtimeRequest, options?: RealtimeConnectOptions): Promise<RealtimeSocket>;
  /**
   * The provider's own batch API for chat requests, at its batch price (OpenAI, Anthropic);
   * absent elsewhere. Its calls name the key that submitted the batch, so no key fall-through.
   */
  batches?: NativeBatches;
  /**
   * Speech to text in the gateway's own shape (text, language, duration), for the voice
   * endpoints; present on every provider that serves speech-to-text (OpenAI, Groq, Deepgram,
   * ElevenLabs). Rejects with a `ProviderError`.
   */
  recognize?(request: RecognitionRequest, options?: CallOptions): Promise<Recognition>;
}

/** An embeddings call as a provider receives it: the texts and the upstream model resolved. */
export interface EmbeddingRequest {
  /** The provider's own model name (catalog `upstreamId`). */
  model: string;
  /** The texts to embed, at least one. */
  input: string[];
  /**
   * Length of each vector, for models that can shorten theirs (OpenAI text-embedding-3, Gemini,
   * Cohere v4, Titan v2, Mistral codestral-embed). Absent means the model's default.
   */
  dimensions?: number;
  /** End-user id, forwarded where the upstream takes one (OpenAI, Azure). */
  user?: string;
  /**
   * What the texts are for, where the upstream embeds queries and documents differently (Gemini
   * `taskType`, Cohere `input_type`); ignored elsewhere. Absent: the upstream's default, except
   * where the upstream requires a value (Cohere), which then gets `document`.
   */
  inputType?: 'query' | 'document';
}

/** The vectors of an embeddings call. */
export interface EmbeddingResult {
  /** The model that answered, as the upstream names it (else the one asked for). */
  model: string;
  /** One vector per input text, in input order. */
  embeddings: Float32Array[];
  /** Input tokens; embeddings have no output, so `totalTokens` equals `promptTokens`. */
  usage: { promptTokens: number; totalTokens: number };
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

/** One request of a native batch: the gateway's id for it (unique in the batch) and the chat request as the provider gets it. */
export interface NativeBatchRequest {
  customId: string;
  request: ProviderChatRequest;
}

/**
 * A batch submitted to a provider: its id there and which key of the provider's pool submitted it
 * (every later call uses that key). `key` is the key's fingerprint (`keyFingerprint`: 16 hex of its
 * SHA-256), found wherever the key sits in the pool; a call for a key the pool no longer holds
 * rejects with upstream code `batch_key_gone` (`isBatchKeyGone`). `keyIndex` is its position at
 * submission, read only for a ref stored without `key` (an earlier release).
 */
export interface NativeBatchRef {
  id: string;
  key?: string;
  keyIndex: number;
}

/** Where a provider's batch stands: running (or being cancelled), or ended (its results can be read). */
export interface NativeBatchStatus {
  state: 'in_progress' | 'cancelling' | 'ended';
}

/**
 * One line of an ended native batch. `read` gives the answer as `chat()` would have resolved it for
 * `request` (the line as submitted), throws the `ProviderError` `chat()` would have rejected with,
 * or returns undefined for a line the provider did not run (cancelled or expired).
 */
export interface NativeBatchLine {
  customId: string;
  read(request: ProviderChatRequest): ChatResult | undefined;
}

/** What a lost submission is looked for by ({@link NativeBatches.find}). */
export interface NativeBatchSearch {
  /** The marker the batch was submitted with (the gateway's part id). */
  marker: string;
  /** When the submission began (unix seconds); batches created up to 5 minutes earlier are read too (clock skew). */
  since: number;
  /** How many requests the submission held. */
  requests: number;
  /** True for a provider batch that cannot be this one (another part holds it, or its results disproved it). */
  skip(id: string): Promise<boolean>;
}

/** A batch {@link NativeBatches.find} found: `confirmed` when the provider's own record names the marker, else a candidate to check by its results. */
export interface NativeBatchFound extends NativeBatchRef {
  confirmed: boolean;
}

/**
 * A provider's own batch API for chat requests (OpenAI `/v1/batches` with files, Anthropic
 * `/v1/messages/batches`): submitted once, polled, its results read once it ended. Every call
 * rejects with a `ProviderError` as `chat()` does. A line absent from the results did not run.
 */
export interface NativeBatches {
  /** Submits the requests as one batch with the pool's next key (at most the provider's limit per batch), tagged with `marker` where the provider keeps one ({@link NativeBatches.find}). */
  submit(requests: readonly NativeBatchRequest[], signal?: AbortSignal, marker?: string): Promise<NativeBatchRef>;
  /**
   * The batch submitted for `search.marker` at or after `search.since`, looked up with every key
   * of the pool; undefined when the provider shows none. It makes a submission whose answer was
   * lost (a crash, a cut connection) recoverable without paying twice. OpenAI batches carry the
   * marker in their metadata (`confirmed`); Anthropic Message Batches carry none, so a Message
   * Batch of as many requests that `search.skip` does not rule out is a candidate (`confirmed:
   * false`): the caller accepts it only once its results show the marker in their custom ids.
   */
  find?(search: NativeBatchSearch, signal?: AbortSignal): Promise<NativeBatchFound | undefined>;
  status(ref: NativeBatchRef, signal?: AbortSignal): Promise<NativeBatchStatus>;
  /** Asks the provider to stop; the lines it ran are still in the results. */
  cancel(ref: NativeBatchRef, signal?: AbortSignal): Promise<void>;
  /** The ended batch's lines, read as they arrive (never the whole result at once). */
  results(ref: NativeBatchRef, signal?: AbortSignal): AsyncIterable<NativeBatchLine>;
}

import type { ChatResult } from '@svc/core';
import type { ProviderChatRequest } from './provider.js';

/** One request of a native batch: the gateway's id for it (unique in the batch) and the chat request as the provider gets it. */
export interface NativeBatchRequest {
  customId: string;
  request: ProviderChatRequest;
}

/** A batch submitted to a provider: its id there and which key of the provider's pool submitted it (every later call uses that key). */
export interface NativeBatchRef {
  id: string;
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

/**
 * A provider's own batch API for chat requests (OpenAI `/v1/batches` with files, Anthropic
 * `/v1/messages/batches`): submitted once, polled, its results read once it ended. Every call
 * rejects with a `ProviderError` as `chat()` does. A line absent from the results did not run.
 */
export interface NativeBatches {
  /** Submits the requests as one batch with the pool's next key (at most the provider's limit per batch). */
  submit(requests: readonly NativeBatchRequest[], signal?: AbortSignal): Promise<NativeBatchRef>;
  status(ref: NativeBatchRef, signal?: AbortSignal): Promise<NativeBatchStatus>;
  /** Asks the provider to stop; the lines it ran are still in the results. */
  cancel(ref: NativeBatchRef, signal?: AbortSignal): Promise<void>;
  /** The ended batch's lines, read as they arrive (never the whole result at once). */
  results(ref: NativeBatchRef, signal?: AbortSignal): AsyncIterable<NativeBatchLine>;
}

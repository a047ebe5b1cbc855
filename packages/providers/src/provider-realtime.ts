import type { WebSocket } from 'ws';

/** A realtime (speech-to-speech) session as a provider opens it. */
export interface RealtimeRequest {
  /** The provider's own model name (catalog `upstreamId`). */
  model: string;
  /**
   * The client speaks the beta protocol (OpenAI: `OpenAI-Beta: realtime=v1`, or the browser
   * subprotocol `openai-beta.realtime-v1`); the upstream is asked for the same.
   */
  beta?: boolean;
}

/** Settings of one realtime connection attempt. */
export interface RealtimeConnectOptions {
  /** Aborts the opening handshake (client gone, shutdown). */
  signal?: AbortSignal;
  /** Which key of the provider's pool to use; the adapter picks round-robin when absent. */
  apiKey?: string;
  /** Longest wait for the upstream's opening handshake, ms. Default 10 000. */
  handshakeTimeoutMs?: number;
  /** Largest message accepted from the upstream, bytes. Default 16 MiB. */
  maxPayload?: number;
}

/** The open upstream WebSocket of a realtime session (the `ws` library's client). */
export type RealtimeSocket = WebSocket;

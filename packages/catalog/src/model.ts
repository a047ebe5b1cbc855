import type { Tier } from '@svc/core';

export type Capability = 'tools' | 'vision' | 'json' | 'reasoning' | 'audio';
/** `moderation`, `speech`, `transcription`, `image` and `realtime` models serve only their own endpoints; the router routes `chat` only. */
export type ModelKind = 'chat' | 'embedding' | 'moderation' | 'speech' | 'transcription' | 'image' | 'realtime';

/** One model of the catalog. Prices are USD per million tokens. */
export interface ModelInfo {
  /** `<provider>/<model>`, the slug clients send. */
  id: string;
  /** Provider id, lowercase (`openai`, `anthropic`, `gemini`, `groq`, ...). */
  provider: string;
  /** The model name the provider's API expects. */
  upstreamId: string;
  /** Models of one family are the same model (same weights and version) on different providers. */
  family: string;
  kind: ModelKind;
  tier: Tier;
  contextWindow: number;
  maxOutputTokens: number;
  inputPricePerMTok: number;
  outputPricePerMTok: number;
  /** Price of prompt tokens read from the provider's prompt cache, when it differs. */
  cachedInputPricePerMTok?: number;
  /** Price of prompt tokens written to the provider's prompt cache, when it differs. */
  cacheWritePricePerMTok?: number;
  capabilities: readonly Capability[];
  /** Free to call or open-weight (the `free_models_only` routing mode). */
  free: boolean;
  openWeight: boolean;
  /** Embedding models: output dimensions. */
  dimensions?: number;
  /**
   * Prices of the non-token endpoints (images, audio, speech), USD. Absent for token-priced
   * models; `@svc/billing` turns them into a cost.
   */
  unitPrices?: UnitPrices;
  /** Unix seconds, for `/v1/models` `created`. */
  created: number;
  /** Rough quality prior in 0..1 used by the router until it has learned better. */
  qualityPrior: number;
  /** Flagged for the `svc/auto-safety` pool. */
  safetyCritical?: boolean;
}

/** Per-unit prices of image, audio and speech models, USD. */
export interface UnitPrices {
  /** Per generated image, by `<size>` or `<quality>:<size>` (e.g. `hd:1024x1024`); `default` when the size is not listed. */
  perImage?: Readonly<Record<string, number>>;
  /** Per minute of audio in (transcription, translation, realtime) or out. */
  perMinute?: number;
  /** Per million characters of text in (speech synthesis). */
  perMChars?: number;
  /**
   * Realtime models: audio tokens per million, in, cached in and out (text tokens use the
   * model's token prices). OpenAI prices a realtime session's audio this way, not by the minute.
   */
  audioInputPerMTok?: number;
  cachedAudioInputPerMTok?: number;
  audioOutputPerMTok?: number;
}

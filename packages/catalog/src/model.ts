import type { Tier } from '@svc/core';

export type Capability = 'tools' | 'vision' | 'json' | 'reasoning' | 'audio';

/**
 * What a model serves. The router routes `chat` only; every other kind serves its own endpoints:
 * `speech` is text-to-speech (`/v1/audio/speech`, `/v1/voice/synthesize`), `transcription` is
 * speech-to-text (`/v1/audio/transcriptions`, `/v1/voice/transcribe`), `image` is
 * `/v1/images/generations` and `realtime` is `/v1/voice/realtime`. One kind a line.
 */
export const modelKinds = [
  'chat',
  'embedding',
  'moderation',
  'speech',
  'transcription',
  'image',
  'realtime',
] as const;
export type ModelKind = (typeof modelKinds)[number];

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
  /** Price of prompt tokens that are audio (audio content parts), when it differs from text's. */
  audioInputPricePerMTok?: number;
  /**
   * The share of these prices the provider's batch API charges (0.5: half price), in (0, 1].
   * Absent: the provider's published share (`providerBatchPriceFactors`), none for a provider
   * without a batch API the gateway submits to.
   */
  batchPriceFactor?: number;
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
  /**
   * False: never chosen by the routing aliases nor as another model's fallback, served only when
   * named (audio chat models, priced for audio, would otherwise take text traffic). Default true.
   */
  routable?: boolean;
  /** Speech-to-text and text-to-speech models: what the voice endpoints validate and default to. */
  voice?: VoiceSpec;
  /**
   * True when the gateway knows no price for the model (a passed-through or discovered model of a
   * provider without configured default prices): its tokens are recorded, its cost is reported as
   * unpriced, never as zero. Absent on catalog models.
   */
  unpriced?: boolean;
  /** Where the entry came from (`/v1/models` reports it); absent means `catalog`. */
  source?: ModelSource;
  /**
   * When the provider stops serving the model (ISO 8601). Past it the model is in no pool and an
   * explicit request for it is refused naming `replacement`; before it, answers carry
   * `Deprecation` and `Sunset` headers (RFC 9745, RFC 8594).
   */
  retiresAt?: string;
  /** When the retirement was announced (ISO 8601): the `Deprecation` header's date. Default: the start of the current day. */
  deprecatedAt?: string;
  /** The model that takes over from a retiring one (a slug), named in the error and the `Link` header. */
  replacement?: string;
}

/**
 * Where a model entry came from: the built-in `catalog`, the operator's `config` (SVC_CONFIG
 * `models:`), `stored` through the admin API (`/v1/admin/models`), `discovered` from an OpenAI-compatible provider's `GET /models`, or `passthrough`:
 * named by a client as `<provider>/<model>` for a configured provider and forwarded as named.
 */
export type ModelSource = 'catalog' | 'config' | 'stored' | 'discovered' | 'passthrough';

/**
 * The voice endpoints' view of a speech-to-text or text-to-speech model. Formats are
 * `<format>_<sample rate in Hz>` (`mp3_44100`, `pcm_16000`, `ulaw_8000`), the shape
 * `/v1/voice/synthesize` takes as `output_format`.
 */
export interface VoiceSpec {
  /** ISO 639-1 codes the model transcribes or speaks, or `multilingual` when it takes any the provider supports. */
  languages: 'multilingual' | readonly string[];
  /** Speech-to-text: transcribes with low latency (the English default of the voice endpoints). */
  lowLatency?: boolean;
  /** Text-to-speech: the output formats it produces; the first is the default. */
  outputFormats?: readonly string[];
  /**
   * Text-to-speech: the voices it speaks with, the first being the default. Absent when the
   * provider takes any voice id of the account's library (`voicePattern` then checks its shape).
   */
  voices?: readonly string[];
  /** Text-to-speech with an open voice library: the default voice id. */
  defaultVoice?: string;
  /** Text-to-speech with an open voice library: the pattern a voice id must match (a RegExp source). */
  voicePattern?: string;
  /** Text-to-speech: most characters one request may hold. */
  maxChars?: number;
}

/** Per-unit prices of image, audio and speech models, USD. */
export interface UnitPrices {
  /** Per generated image, by `<size>` or `<quality>:<size>` (e.g. `hd:1024x1024`); `default` when the size is not listed. */
  perImage?: Readonly<Record<string, number>>;
  /** Per minute of audio in (transcription, translation, realtime) or out. */
  perMinute?: number;
  /** Per hour of audio in, for providers that publish an hourly rate (billed by the second like `perMinute`). */
  perHour?: number;
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

import type { Tier } from '@svc/core';

export type Capability = 'tools' | 'vision' | 'json' | 'reasoning' | 'audio';
export type ModelKind = 'chat' | 'embedding';

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
  /** Unix seconds, for `/v1/models` `created`. */
  created: number;
  /** Rough quality prior in 0..1 used by the router until it has learned better. */
  qualityPrior: number;
  /** Flagged for the `svc/auto-safety` pool. */
  safetyCritical?: boolean;
}

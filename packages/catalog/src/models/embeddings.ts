import { defineModels, released, type ModelSpec } from './define.js';

// Embedding models: price is per million input tokens; there are no output tokens.
// Sources: OpenAI and Gemini pricing pages (2026), mistral.ai/pricing, cohere.com/pricing.
export type EmbeddingSpec = Omit<ModelSpec, 'outputPricePerMTok' | 'maxOutputTokens' | 'capabilities'> & {
  dimensions: number;
};

/** Builds one provider's embedding entries (no output price, no output tokens, no capabilities). */
export function embeddings(provider: string, specs: readonly EmbeddingSpec[]) {
  return defineModels(
    provider,
    'embedding',
    specs.map((spec) => ({ ...spec, outputPricePerMTok: 0, maxOutputTokens: 0, capabilities: [] })),
  );
}

export const openaiEmbeddingModels = /* @__PURE__ */ embeddings('openai', [
  { upstreamId: 'text-embedding-3-small', family: 'text-embedding-3-small', tier: 'T3', contextWindow: 8_191,
    inputPricePerMTok: 0.02, dimensions: 1536, created: released('2024-01-25'), qualityPrior: 0.62 },
  { upstreamId: 'text-embedding-3-large', family: 'text-embedding-3-large', tier: 'T1', contextWindow: 8_191,
    inputPricePerMTok: 0.13, dimensions: 3072, created: released('2024-01-25'), qualityPrior: 0.72 },
  { upstreamId: 'text-embedding-ada-002', family: 'text-embedding-ada-002', tier: 'T2', contextWindow: 8_191,
    inputPricePerMTok: 0.1, dimensions: 1536, created: released('2022-12-15'), qualityPrior: 0.5 },
]);

export const geminiEmbeddingModels = /* @__PURE__ */ embeddings('gemini', [
  { upstreamId: 'gemini-embedding-001', family: 'gemini-embedding-001', tier: 'T1', contextWindow: 2_048,
    inputPricePerMTok: 0.15, dimensions: 3072, created: released('2025-07-14'), qualityPrior: 0.76 },
]);

export const mistralEmbeddingModels = /* @__PURE__ */ embeddings('mistral', [
  { upstreamId: 'mistral-embed', family: 'mistral-embed', tier: 'T2', contextWindow: 8_192,
    inputPricePerMTok: 0.1, dimensions: 1024, created: released('2023-12-11'), qualityPrior: 0.58 },
]);

export const cohereEmbeddingModels = /* @__PURE__ */ embeddings('cohere', [
  { upstreamId: 'embed-v4.0', family: 'cohere-embed-v4', tier: 'T1', contextWindow: 128_000,
    inputPricePerMTok: 0.12, dimensions: 1536, created: released('2025-04-15'), qualityPrior: 0.74 },
  { upstreamId: 'embed-english-v3.0', family: 'cohere-embed-english-v3', tier: 'T2', contextWindow: 512,
    inputPricePerMTok: 0.1, dimensions: 1024, created: released('2023-11-02'), qualityPrior: 0.6 },
  { upstreamId: 'embed-multilingual-v3.0', family: 'cohere-embed-multilingual-v3', tier: 'T2', contextWindow: 512,
    inputPricePerMTok: 0.1, dimensions: 1024, created: released('2023-11-02'), qualityPrior: 0.6 },
]);

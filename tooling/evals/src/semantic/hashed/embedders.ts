import { createHashedEmbedder } from '@svc/semantic';
import type { Embedder } from '@svc/semantic';
import { createProviderEmbedder } from '@svc/semantic';
import { createUseLiteEmbedder } from './use-lite-embedder.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The embedder to calibrate: `hashed` (the local default), `use-lite` (a local neural sentence
 * encoder, evaluation only: docs/caching.md) or `openai` — any OpenAI-compatible
 * `/embeddings` endpoint (`OPENAI_BASE_URL`, default https://api.openai.com/v1, and
 * `OPENAI_API_KEY`), so a provider model gets its own calibrated threshold. A full run embeds
 * about 82,000 short texts (roughly 1.3 M tokens).
 */
export function pickEmbedder(kind: string, model: string | undefined, dimensions: number | undefined, vectorsFile?: string): Embedder & { flush?(): void } {
  if (kind === 'hashed') return createHashedEmbedder(dimensions === undefined ? {} : { dimensions });
  if (kind === 'use-lite') return createUseLiteEmbedder(vectorsFile);
  if (kind !== 'openai') throw new Error(`--embedder must be hashed, use-lite or openai, got ${kind}`);
  const key = process.env.OPENAI_API_KEY;
  if (!key) throw new Error('--embedder openai needs OPENAI_API_KEY');
  if (!model || dimensions === undefined) throw new Error('--embedder openai needs --model and --dimensions');
  const base = (process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1').replace(/\/$/, '');
  return createProviderEmbedder({
    id: `openai/${model}@${dimensions}`,
    dimensions,
    // Everything is embedded once in batches (embedAll); single-text calls later come from here.
    cacheSize: 200_000,
    embed: async (texts) => {
      const response = await fetch(`${base}/embeddings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, input: texts, dimensions }),
      });
      if (!response.ok) throw new Error(`embeddings ${response.status}: ${(await response.text()).slice(0, 300)}`);
      const body: unknown = await response.json();
      const data = isRecord(body) && Array.isArray(body['data']) ? body['data'] : undefined;
      if (!data) throw new Error('embeddings: no data array in the response');
      const vectors: number[][] = [];
      for (const item of data) {
        const embedding = isRecord(item) ? item['embedding'] : undefined;
        const index = isRecord(item) && typeof item['index'] === 'number' ? item['index'] : vectors.length;
        if (!Array.isArray(embedding) || !embedding.every((x) => typeof x === 'number')) throw new Error('embeddings: an item without a numeric embedding');
        vectors[index] = embedding;
      }
      return vectors;
    },
  });
}

/** Embeds `texts` in batches of `batch`, `parallel` batches at a time; one vector per distinct text. */
export async function embedAll(embedder: Embedder, texts: readonly string[], batch = 256, parallel = 4): Promise<Map<string, Float32Array>> {
  const distinct = [...new Set(texts)];
  const out = new Map<string, Float32Array>();
  const chunks: string[][] = [];
  for (let i = 0; i < distinct.length; i += batch) chunks.push(distinct.slice(i, i + batch));
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const chunk = chunks[next++]!;
      const vectors = await embedder.embed(chunk);
      for (const [i, text] of chunk.entries()) out.set(text, vectors[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, chunks.length) }, worker));
  return out;
}

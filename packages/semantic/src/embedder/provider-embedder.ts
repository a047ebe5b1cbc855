import { LRUCache } from 'lru-cache';
import type { Embedder } from './interface.js';

export interface ProviderEmbedderSettings {
  /** Stable name, e.g. `openai/text-embedding-3-small@512`; thresholds are calibrated per id. */
  id: string;
  /** Length of the vectors `embed` returns. */
  dimensions: number;
  /**
   * Calls the embeddings model: one vector per text, in order (e.g. a configured provider's
   * `embed({ model, input: [...texts], dimensions })` mapped to its `embeddings`).
   */
  embed: (texts: string[]) => Promise<readonly (ArrayLike<number> | readonly number[])[]>;
  /** Recent embeddings kept, by exact text (default 1000; 0 disables). */
  cacheSize?: number;
}

function normalised(values: ArrayLike<number>, dimensions: number, id: string): Float32Array {
  if (values.length !== dimensions) throw new Error(`embedder ${id} returned a vector of ${values.length} dimensions, expected ${dimensions}`);
  const out = Float32Array.from(values);
  let norm = 0;
  for (let i = 0; i < out.length; i++) norm += out[i]! * out[i]!;
  if (norm > 0) {
    const inverse = 1 / Math.sqrt(norm);
    for (let i = 0; i < out.length; i++) out[i]! *= inverse;
  }
  return out;
}

/**
 * An embedder backed by an embeddings model (any configured provider's `embed`). Vectors are
 * L2-normalised; a small LRU of recent texts spares a second call for the same question (a
 * lookup followed by a store, retries, popular questions). Texts a batch repeats are sent once.
 */
export function createProviderEmbedder(settings: ProviderEmbedderSettings): Embedder {
  const { id, dimensions } = settings;
  if (!Number.isInteger(dimensions) || dimensions < 1) throw new RangeError(`dimensions must be a positive integer, got ${dimensions}`);
  const size = settings.cacheSize ?? 1000;
  const recent = size > 0 ? new LRUCache<string, Float32Array>({ max: size }) : undefined;

  return {
    id,
    dimensions,
    async embed(texts) {
      const out: (Float32Array | undefined)[] = texts.map((t) => recent?.get(t));
      const missing = [...new Set(texts.filter((_, i) => out[i] === undefined))];
      if (missing.length > 0) {
        const vectors = await settings.embed(missing);
        if (vectors.length !== missing.length) throw new Error(`embedder ${id} returned ${vectors.length} vectors for ${missing.length} texts`);
        const fresh = new Map(missing.map((text, i) => [text, normalised(vectors[i]!, dimensions, id)]));
        for (const [text, vector] of fresh) recent?.set(text, vector);
        for (let i = 0; i < texts.length; i++) out[i] ??= fresh.get(texts[i]!);
      }
      // Copies: a caller that mutates its vector must not corrupt the cache.
      return out.map((v) => Float32Array.from(v!));
    },
  };
}

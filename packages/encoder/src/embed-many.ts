import type { Embedder } from '@svc/semantic';

/** Options of {@link embedMany}. */
export interface EmbedManyOptions {
  /** Texts per `embed` call (default 64). */
  batchSize?: number;
  /** Called after each batch with the number of texts done and the total. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Embeds a long list for offline work: texts sorted by length so each batch pads little, two
 * batches in flight so the inference thread never waits, vectors returned in input order.
 */
export async function embedMany(embedder: Embedder, texts: readonly string[], options: EmbedManyOptions = {}): Promise<Float32Array[]> {
  const batchSize = options.batchSize ?? 64;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
  const out = new Array<Float32Array>(texts.length);
  let done = 0;
  let next = 0;
  async function lane(): Promise<void> {
    while (next < order.length) {
      const indices = order.slice(next, next + batchSize);
      next += batchSize;
      const vectors = await embedder.embed(indices.map((i) => texts[i]!));
      indices.forEach((index, j) => {
        out[index] = vectors[j]!;
      });
      done += indices.length;
      options.onProgress?.(done, texts.length);
    }
  }
  await Promise.all([lane(), lane()]);
  return out;
}

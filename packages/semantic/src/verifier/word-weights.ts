import { fnv, mix } from '../embedder/hash.js';

/** Bucket of a word in a table of `size` (a power of two). */
export function wordBucket(word: string, size: number): number {
  return mix(fnv(word)) & (size - 1);
}

/** Quantisation step of the stored weights: a byte holds weight x 16. */
const STEP = 16;

/**
 * Inverse document frequency of stemmed words, learned from the training questions and kept as
 * one byte per hashed bucket (words that share a bucket share a weight; unseen words weigh
 * like the rarest). Rare words are the ones whose difference changes the question.
 */
export class WordWeights {
  constructor(private readonly table: Uint8Array) {
    if (table.length === 0 || (table.length & (table.length - 1)) !== 0) throw new RangeError('word weight table size must be a power of two');
  }

  weight(stem: string): number {
    return this.table[wordBucket(stem, this.table.length)]! / STEP;
  }

  toBase64(): string {
    return Buffer.from(this.table).toString('base64');
  }

  static fromBase64(text: string): WordWeights {
    return new WordWeights(new Uint8Array(Buffer.from(text, 'base64')));
  }

  /** IDF ln((n + 1) / (df + 1)) + 1 of each bucket over `documents` (distinct stems each). */
  static learn(documents: readonly Iterable<string>[], size: number): WordWeights {
    const df = new Float64Array(size);
    for (const doc of documents) {
      const seen = new Set<number>();
      for (const stem of doc) seen.add(wordBucket(stem, size));
      for (const b of seen) df[b]!++;
    }
    const n = documents.length;
    return new WordWeights(Uint8Array.from(df, (d) => Math.min(255, Math.round((Math.log((n + 1) / (d + 1)) + 1) * STEP))));
  }
}

import { hashString } from './mock-random.js';

/** Vector length when the request names none (the catalog's `mock-embed`). */
export const MOCK_EMBEDDING_DIMENSIONS = 256;

/**
 * A deterministic embedding: the text's character trigrams (lowercased, padded with spaces at
 * both ends) are hashed into `dimensions` buckets with a hashed sign, then the vector is
 * L2-normalised. Equal texts give equal vectors, and texts sharing words give vectors with a
 * higher cosine similarity, which is enough for retrieval demos and cache tests. The empty text
 * gets a fixed unit vector.
 */
export function mockEmbedding(text: string, dimensions = MOCK_EMBEDDING_DIMENSIONS): Float32Array {
  const vector = new Float32Array(dimensions);
  const padded = ` ${text.toLowerCase()} `;
  for (let at = 0; at + 3 <= padded.length; at++) {
    const hash = hashString(padded.slice(at, at + 3));
    vector[hash % dimensions]! += (hash & 0x80000000) === 0 ? 1 : -1;
  }
  let sumOfSquares = 0;
  for (const value of vector) sumOfSquares += value * value;
  if (sumOfSquares === 0) {
    vector[0] = 1;
    return vector;
  }
  const scale = 1 / Math.sqrt(sumOfSquares);
  for (let i = 0; i < dimensions; i++) vector[i]! *= scale;
  return vector;
}

import type { PairReader } from '../pair/pair-reader.js';

/** Turns texts into fixed-length vectors whose cosine similarity measures closeness of meaning. */
export interface Embedder {
  /**
   * Stable name of the model and its settings. Vectors (and calibrated thresholds) of two
   * embedders with different ids are not comparable; stores keep them apart by it.
   */
  readonly id: string;
  /** Length of every vector. */
  readonly dimensions: number;
  /** One L2-normalised vector per text, in input order. Rejects when the model fails. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /**
   * A pair model trained on this embedder's token states, when it has one: the semantic cache then
   * lets it refuse the stored question it would serve (word order, roles) unless told otherwise.
   */
  readonly pairReader?: PairReader;
}

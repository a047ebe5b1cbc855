import type { ReplacedContext } from './reader-inputs.js';
import type { TokenFeatures } from './token-features.js';

/**
 * A pair model that reads two questions together (word order and roles: who did what to whom,
 * from and to), where a cosine of sentence vectors sees only the words present. The cache asks it
 * about the one stored question it would serve; the features of a stored question are kept with
 * its entry, the query's come from the embedder's own pass over it.
 */
export interface PairReader {
  /** Name of the model and its weights; features of another id are not comparable. */
  readonly id: string;
  /** Width of a word piece's features. */
  readonly dimensions: number;
  /** The probability from which a pair is served. */
  readonly threshold: number;
  /**
   * The features of a text, as the embedder computes them with its vector (recently embedded
   * texts cost nothing; others one more forward pass). Rejects when the model fails.
   */
  features(text: string): Promise<TokenFeatures>;
  /** With features that carry the fixed projection of the token states after the model's own numbers: where it starts, and the reduced word table (what a role model's replaced-word readers read). */
  readonly context?: ReplacedContext;
  /** The probability that the two texts ask the same thing (symmetric), given their sentence vectors' cosine. */
  score(query: TokenFeatures, stored: TokenFeatures, cosine: number): number;
}

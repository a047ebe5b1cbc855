import type { KeyTerms } from '../entity-guard.js';
import { checkModel, packModel, scoreModel, type VerifierModel } from './model.js';
import { featureNames, pairFeatures, profile, type TextProfile } from './pair-features.js';
import { WordWeights } from './word-weights.js';

/** A trained verifier as stored: the model and the word weights its features use. */
export interface TrainedVerifier extends VerifierModel {
  /** {@link WordWeights} table, base64. */
  wordWeights: string;
}

/**
 * The stage after the vector search: a learned pair classifier that decides whether a stored
 * question asks the same thing as the query, from cheap lexical features of both texts and
 * their cosine (docs/caching.md, "Semantic cache").
 */
export interface Verifier {
  /** The embedder whose cosine the model was trained on. */
  readonly embedder: string;
  /** Lowest probability served as a hit. */
  readonly threshold: number;
  /** Lowest cosine worth verifying: the vector search's `minScore`. */
  readonly candidateFloor: number;
  /** Profiles a text once, for {@link Verifier.score} (the query's profile serves every candidate); `terms`: its key terms, if known. */
  profile(text: string, terms?: KeyTerms): TextProfile;
  /**
   * Probability that `candidate` asks the same as `query`, given their cosine; 1 for the same
   * words (case, spacing and punctuation aside), which no label can make safer.
   */
  score(query: TextProfile, candidate: TextProfile, cosine: number): number;
}

/** Builds a {@link Verifier} from trained data (`eval --train` writes it). */
export function createVerifier(trained: TrainedVerifier): Verifier {
  const model = checkModel(trained, featureNames);
  const packed = packModel(model);
  const weights = WordWeights.fromBase64(trained.wordWeights);
  const features = new Float64Array(featureNames.length);
  return {
    embedder: model.embedder,
    threshold: model.threshold,
    candidateFloor: model.candidateFloor,
    profile: (text, terms) => profile(text, weights, terms),
    score: (query, candidate, cosine) => (query.words === candidate.words ? 1 : scoreModel(packed, pairFeatures(query, candidate, cosine, features))),
  };
}

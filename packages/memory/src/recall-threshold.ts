import type { CueWeights } from './recall-cues.js';
import type { NearestRules } from './recall-nearest.js';

/**
 * The lowest relevance (similarity plus cue bonus) at which a stored fact is injected, per
 * embedder, calibrated by `pnpm --filter @svc/evals memory` (docs/memory.md has the curve): the
 * lowest floor at which at most 0.5% of the dev set's unrelated prompts get anything injected
 * from a user's 50 facts.
 * A request that does not refer to its user (no I, my, me, we, our...) must clear a higher floor:
 * personal facts rarely help it, and most unrelated prompts that match a fact are of that kind.
 * An embedder without a calibration gets the strict fallback, which injects less rather than more.
 */
export interface RecallFloors {
  /** Floor for a request that refers to its user. */
  self: number;
  /** Floor for any other request. */
  other: number;
  /**
   * The least cosine similarity at which the cue bonus counts (absent: at any): cues lift a fact the
   * encoder places somewhat near the request, never one it places with unrelated text ("How do I
   * cancel the Apple ID associated with my phone number?" / "My phone is a Pixel 8.": 0.22).
   */
  cued?: number;
  /**
   * A stricter floor for a request that does not refer to its user and that the encoder places near
   * no attribute's example question (cosine < `closeness`, the classifier's question threshold):
   * low attribute confidence. A fact that fills no slot the request asks for must clear `floor`
   * ("What is your all time favorite book?" / "My favourite book is Emma.": 0.67 with the word cue,
   * past the `other` floor, yet about the assistant's taste, not the user's).
   */
  unsure?: { closeness: number; floor: number };
  /**
   * When nothing clears the floor, the user's clearly nearest fact for a request about the user's
   * own state (`recall-nearest.ts`; absent: off). Chosen on tuning forms only (docs/memory.md, seventh pass).
   */
  nearest?: NearestRules;
}

/**
 * What a fact's shared cues add to its similarity before the floor (`recall-cues.ts`), chosen
 * with the floors on the calibration split of `pnpm --filter @svc/evals memory`; the own-word
 * bonus on the tuning forms of `memory:updates` (0.1: the floors stay 0.46 / 0.59 and dev false
 * injection 0.6%; docs/memory.md).
 */
export const RECALL_CUE_WEIGHTS: CueWeights = { wordHit: 0.03, slotHit: 0.25, ownWordHit: 0.1 };

const calibrated: Readonly<Record<string, RecallFloors>> = {
  // cued: between the least similarity of a dev question given its fact (0.257) and the most of a dev unrelated prompt lifted past its floor by cues (0.221).
  // unsure: 0.7 is the similarity-alone floor at which no dev prompt gets anything (docs/memory.md's curve); no dev question is asked without referring to its user.
  // nearest: state questions of the tuning forms against 3,000 dev unrelated prompts: the most gained with none of them injected (memory:nearest; issue #35, seventh pass);
  // floor 0.35 -> 0.32 through the store's recall against 32,000 more probes of 8,000 self-referring dev prompts: +8 tuning questions, +1 of them injected (memory:nearest-pipeline; sixteenth pass).
  'all-MiniLM-L6-v2': { self: 0.46, other: 0.59, cued: 0.24, unsure: { closeness: 0.6, floor: 0.7 }, nearest: { state: { floor: 0.32, ahead: 0.1 } } },
  'hashed-ngram-v1-512': { self: 0.4, other: 0.39 },
};

const FALLBACK: RecallFloors = { self: 0.6, other: 0.7 };

export function recallFloors(embedderId: string): RecallFloors {
  return calibrated[embedderId] ?? FALLBACK;
}

/** First- or second-person words: the request is about its user (or the user's own things). */
const SELF = /\b(?:i|i'm|i've|i'd|i'll|im|me|my|mine|myself|we|we're|our|ours|us)\b/i;

/** Whether a request refers to its user, so a stated fact may answer it. */
export function refersToUser(text: string): boolean {
  return SELF.test(text);
}

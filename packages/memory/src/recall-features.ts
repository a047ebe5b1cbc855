/**
 * What a re-ranker over the few facts of a user closest to a request would read: features of the
 * request and of each candidate's place among the user's facts. A request that asks about the
 * user indirectly ("Find me a good bakery near where I live" / "I moved to Berlin last month")
 * sits far from the fact that answers it, below the floor that keeps unrelated prompts out, yet
 * that fact is often still the user's nearest one. `pnpm --filter @svc/evals memory:rerank` fits
 * a logistic scorer on these features over the dev data: it does not beat the floors and cues at
 * the same false-injection budget (docs/memory.md), so recall does not use one; `recall` reports
 * the features with `features: true` for the next attempt.
 */

/** What the scorer reads of one candidate: its similarity to the request and the cues it shares with it. */
export interface RerankCandidate {
  similarity: number;
  wordHit: boolean;
  slotHit: boolean;
  ownHit: boolean;
  /** The encoder placed the fact near one of its known attributes. */
  attribute: boolean;
}

/** What the scorer reads of the request. */
export interface RerankRequest {
  /** The request refers to its user (I, my, me...). */
  self: boolean;
  /** Cosine of the request to the nearest example question of the known attributes ("What is my job?"). */
  personal: number;
}

/** How many of the user's nearest facts are looked at (and make the features of each). */
export const RERANK_DEPTH = 8;

export const RERANK_FEATURES = ['similarity', 'gap to next', 'behind first', 'above mean', 'first', 'word', 'slot', 'own word', 'attribute', 'self', 'personal', 'similarity x personal'] as const;

const flag = (on: boolean) => (on ? 1 : 0);

/** The features of each candidate, given all of them sorted by similarity, best first (at most {@link RERANK_DEPTH} are read). */
export function rerankFeatures(request: RerankRequest, candidates: readonly RerankCandidate[]): number[][] {
  const top = candidates.slice(0, RERANK_DEPTH);
  if (top.length === 0) return [];
  const first = top[0]!.similarity;
  const mean = top.reduce((sum, c) => sum + c.similarity, 0) / top.length;
  return top.map((c, i) => {
    const next = top[i + 1]?.similarity ?? c.similarity - 0.1;
    return [
      c.similarity,
      c.similarity - next,
      first - c.similarity,
      c.similarity - mean,
      flag(i === 0),
      flag(c.wordHit),
      flag(c.slotHit),
      flag(c.ownHit),
      flag(c.attribute),
      flag(request.self),
      request.personal,
      c.similarity * request.personal,
    ];
  });
}

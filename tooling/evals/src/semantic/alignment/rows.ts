import { keyTerms, mayShareAnswer, type SimilarityCalibration } from '@svc/semantic';
import type { PairRow } from './decisions.js';
import { gptCacheServed } from './gptcache-sim.js';
import { pairScores, type Weighting } from './pair-scores.js';
import type { EvalSets } from './texts.js';
import type { TokenTable } from './token-cache.js';

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

/** Builds {@link PairRow}s over the token table: alignment scores only where the shipped gate passes. */
export function rowMaker(table: TokenTable, c: SimilarityCalibration, w: Weighting) {
  const vector = (text: string) => {
    const i = table.index.get(text);
    if (i === undefined) throw new Error(`no vector for ${JSON.stringify(text.slice(0, 60))}`);
    return table.vectors[i]!;
  };
  /** One asked question against one stored question (QQP's pairs, the near misses): no margin applies. */
  const pair = (asked: string, stored: string, positive: boolean): PairRow => {
    const cosine = dot(vector(asked), vector(stored));
    const gate = cosine >= c.threshold && mayShareAnswer(keyTerms(asked), keyTerms(stored));
    return { cosine, gate, positive, scores: gate ? pairScores(table, asked, stored, w) : undefined };
  };
  /** GPTCache's protocol: gate = the shipped lookup (nearest decides, guard, margin) served the paraphrase. */
  const gptCache = (sets: EvalSets, cosineAlone = false, threshold = c.threshold): PairRow[] =>
    gptCacheServed(table, sets.paraphrases, sets.asked, { ...c, threshold }, cosineAlone).map((s) => ({
      cosine: s.cosine,
      gate: s.served !== undefined,
      positive: s.correct,
      scores: s.served !== undefined && !cosineAlone ? pairScores(table, s.asked, s.served, w) : undefined,
    }));
  return { pair, gptCache };
}

import { keyTerms, mayShareAnswer, type SimilarityCalibration } from '@svc/semantic';
import type { ParaphrasePair } from '../dataset.js';
import type { TokenTable } from './token-cache.js';

/** What the shipped lookup does with one paraphrase: the origin it would serve (or none), and whether that is right. */
export interface ServedParaphrase {
  asked: string;
  /** The stored origin the nearest-decides rule serves, undefined when it misses. */
  served: string | undefined;
  cosine: number;
  correct: boolean;
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

/**
 * GPTCache's protocol over the cached vectors, as `createSemanticCache` decides with the shipped
 * calibration (the eval's gptcache-protocol.ts runs the same through the production lookup): the
 * distinct origins stored (a repeated origin text is one entry), each paraphrase's `candidates`
 * nearest at cosine >= threshold; the nearest is served unless the guard refuses it or the next is
 * within `margin`. `cosineAlone` skips guard and margin (the naive baseline).
 */
export function gptCacheServed(table: TokenTable, pairs: readonly ParaphrasePair[], asked: (q: string) => string, c: SimilarityCalibration, cosineAlone = false): ServedParaphrase[] {
  const origins = [...new Set(pairs.map((p) => asked(p.origin)))];
  const vectors = origins.map((o) => table.vectors[table.index.get(o)!]!);
  return pairs.map((pair) => {
    const text = asked(pair.similar);
    const q = table.vectors[table.index.get(text)!]!;
    const ranked = vectors
      .map((v, i) => ({ i, score: dot(q, v) }))
      .filter((m) => m.score >= c.threshold)
      .sort((x, y) => y.score - x.score)
      .slice(0, cosineAlone ? 1 : c.candidates);
    const [best, next] = ranked;
    const refused = !best || (!cosineAlone && (!mayShareAnswer(keyTerms(text), keyTerms(origins[best.i]!)) || (next !== undefined && next.score >= best.score - c.margin)));
    const served = refused ? undefined : origins[best.i];
    return { asked: text, served, cosine: best?.score ?? -1, correct: served === asked(pair.origin) };
  });
}

import type { QqpPair } from '../dataset.js';
import type { Answered } from './client.js';
import { asked, type LiveSet } from './pairs.js';

/** How the `b` questions of one run fared. */
export interface LiveScore {
  duplicates: number;
  semanticHits: number;
  exactHits: number;
  /** Hits answered by `b`'s own `a` on a pair labelled duplicate. */
  strictRight: number;
  /** Strict, or answered by the same text or by any question qqp-dev labels a duplicate of `b`. */
  lenientRight: number;
  /** Hits answered by `b`'s own `a` (right or wrong). */
  byOwnA: number;
  /** Hits whose answering request id maps to no question of the run. */
  unknownSource: number;
  /** `a` questions answered from the cache (so not stored). */
  aHits: number;
}

/** Judges each `b`: a hit is right when it was answered by a question labelled its duplicate. */
export function scoreRun(set: LiveSet, pairs: readonly QqpPair[], run: { a: Answered[]; b: Answered[] }): LiveScore {
  const byId = new Map([...run.a, ...run.b].map((x) => [x.requestId, x.question]));
  const score: LiveScore = { duplicates: 0, semanticHits: 0, exactHits: 0, strictRight: 0, lenientRight: 0, byOwnA: 0, unknownSource: 0, aHits: run.a.filter((x) => x.cacheType).length };
  for (const [i, pair] of pairs.entries()) {
    if (pair.duplicate) score.duplicates++;
    const b = run.b[i]!;
    if (b.cacheType === 'semantic') score.semanticHits++;
    else if (b.cacheType === 'exact') score.exactHits++;
    else continue;
    // An exact hit was answered by the same text; a semantic one names its request.
    const source = b.cacheType === 'exact' ? b.question : b.cachedRequestId && byId.get(b.cachedRequestId);
    if (source === undefined || source === '') {
      score.unknownSource++;
      continue;
    }
    const ownA = asked(source) === asked(pair.a);
    if (ownA) score.byOwnA++;
    if (ownA && pair.duplicate) score.strictRight++;
    if ((ownA && pair.duplicate) || set.duplicateOf(source, pair.b)) score.lenientRight++;
  }
  return score;
}

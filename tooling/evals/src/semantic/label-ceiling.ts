import { stem, wordTokens } from '@svc/semantic/training';
import type { QqpPair } from './dataset.js';
import { proportionInterval } from './metrics.js';

export interface CeilingRow {
  level: string;
  pairs: number;
  /** Share labelled duplicate: the best precision any rule that serves every pair of this level can show. */
  duplicates: number;
  low: number;
  high: number;
}

/**
 * How often QQP calls a pair a duplicate at each level of lexical closeness: identical words
 * (case, spacing and punctuation aside), the same stemmed word set, then word-set Jaccard
 * bands. A cache that serves near-verbatim repeats cannot show a precision above their rate.
 */
export function labelCeiling(pairs: readonly QqpPair[]): CeilingRow[] {
  const levels = new Map<string, { pairs: number; duplicates: number; order: number }>();
  for (const pair of pairs) {
    const a = wordTokens(pair.a);
    const b = wordTokens(pair.b);
    const sa = new Set(a.map(stem));
    const sb = new Set(b.map(stem));
    let shared = 0;
    for (const w of sa) if (sb.has(w)) shared++;
    const jaccard = shared / Math.max(1, sa.size + sb.size - shared);
    let level: string;
    let order: number;
    if (a.join(' ') === b.join(' ')) [level, order] = ['identical words', 0];
    else if (shared === sa.size && shared === sb.size) [level, order] = ['same stemmed word set, other order or inflection', 1];
    else {
      const band = Math.min(9, Math.floor(jaccard * 10));
      [level, order] = [`word Jaccard ${(band / 10).toFixed(1)}-${((band + 1) / 10).toFixed(1)}`, 11 - band];
    }
    const row = levels.get(level) ?? { pairs: 0, duplicates: 0, order };
    row.pairs++;
    if (pair.duplicate) row.duplicates++;
    levels.set(level, row);
  }
  return [...levels]
    .sort((x, y) => x[1].order - y[1].order)
    .map(([level, r]) => ({ level, pairs: r.pairs, duplicates: r.duplicates / r.pairs, ...proportionInterval(r.duplicates, r.pairs) }));
}

import type { QqpPair } from './dataset.js';
import type { Answered } from './live/client.js';
import { asked } from './live/pairs.js';

/** How PAWS's `b` sentences fared (sentence `a` of every pair asked first, then every `b`). */
export interface PawsScore {
  paraphrases: number;
  others: number;
  /** Non-paraphrase `b`s answered from the cache: by their own `a`, by any entry. */
  othersByOwnA: number;
  othersAnswered: number;
  /** Paraphrase `b`s answered by their own `a` (recall), and by any entry. */
  paraphrasesByOwnA: number;
  paraphrasesAnswered: number;
  /** `a` sentences answered from the cache (so not stored). */
  aHits: number;
}

/** Scores one run of PAWS's protocol: which `b`s were answered, and by whom. */
export function scorePaws(pairs: readonly QqpPair[], run: { a: Answered[]; b: Answered[] }): PawsScore {
  const byId = new Map([...run.a, ...run.b].map((x) => [x.requestId, x.question]));
  const score: PawsScore = { paraphrases: 0, others: 0, othersByOwnA: 0, othersAnswered: 0, paraphrasesByOwnA: 0, paraphrasesAnswered: 0, aHits: run.a.filter((x) => x.cacheType).length };
  for (const [i, pair] of pairs.entries()) {
    const b = run.b[i]!;
    const answered = b.cacheType !== undefined;
    const source = b.cacheType === 'exact' ? b.question : b.cachedRequestId && byId.get(b.cachedRequestId);
    const ownA = answered && typeof source === 'string' && asked(source) === asked(pair.a);
    if (pair.duplicate) {
      score.paraphrases++;
      if (answered) score.paraphrasesAnswered++;
      if (ownA) score.paraphrasesByOwnA++;
    } else {
      score.others++;
      if (answered) score.othersAnswered++;
      if (ownA) score.othersByOwnA++;
    }
  }
  return score;
}

const pct = (n: number, d: number) => `${n} (${((100 * n) / Math.max(1, d)).toFixed(1)}%)`;

export const pawsHeader = [
  '| run | non-paraphrases answered from the cache (goal <= 5%) | of which by their own `a` | paraphrases hit by their own `a` (goal >= 40%) | paraphrases answered by any entry | `a` answered from cache |',
  '|---|---|---|---|---|---|',
];

/** One table row of a PAWS run. */
export function pawsRow(label: string, s: PawsScore): string {
  return `| ${label} | ${pct(s.othersAnswered, s.others)} of ${s.others} | ${s.othersByOwnA} | ${pct(s.paraphrasesByOwnA, s.paraphrases)} of ${s.paraphrases} | ${s.paraphrasesAnswered} | ${s.aHits} |`;
}

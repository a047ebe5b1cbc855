import type { LiveScore } from './score.js';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const precision = (right: number, hits: number) => (hits === 0 ? '-' : (right / hits).toFixed(3));

export const liveHeader = [
  '| run | hits on `b` (semantic + exact) | precision strict / lenient | recall strict / lenient | answered by own `a` | `a` answered from cache |',
  '|---|---|---|---|---|---|',
];

/** One table row of a run's score. */
export function liveRow(label: string, s: LiveScore): string {
  const hits = s.semanticHits + s.exactHits;
  const unknown = s.unknownSource > 0 ? ` (${s.unknownSource} unmapped)` : '';
  return `| ${label} | ${hits} (${s.semanticHits} + ${s.exactHits})${unknown} | ${precision(s.strictRight, hits)} / ${precision(s.lenientRight, hits)} | ${pct(s.strictRight / s.duplicates)} / ${pct(s.lenientRight / s.duplicates)} | ${s.byOwnA} | ${s.aHits} |`;
}

/** The pair-by-pair offline figure as a row of the same table. */
export function pairRow(label: string, hits: readonly boolean[], pairs: readonly { duplicate: boolean }[]): string {
  const count = hits.filter(Boolean).length;
  const right = pairs.filter((p, i) => hits[i] && p.duplicate).length;
  const duplicates = pairs.filter((p) => p.duplicate).length;
  return `| ${label} | ${count} | ${precision(right, count)} / - | ${pct(right / duplicates)} / - | ${count} | - |`;
}

import { type Embedder, keyTerms, mayShareAnswer, type PairReader } from '@svc/semantic';
import { baseAlone, pairLabel } from './report.js';
import type { QqpPair } from './dataset.js';

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

interface PairReading {
  cosine: number;
  guard: boolean;
  /** The pair model's probability, or undefined without one (or when the cosine or guard already refuse). */
  pair: number | undefined;
  /** The base pair model's alone, where the reader is the role model over it. */
  base: number | undefined;
  duplicate: boolean;
}

type WithBase = Embedder & { basePairReader?: PairReader };

async function read(embedder: WithBase, pairs: readonly QqpPair[], asked: (q: string) => string, threshold: number): Promise<PairReading[]> {
  const out: PairReading[] = [];
  const reader = embedder.pairReader;
  const base = baseAlone(embedder);
  const score = async (r: PairReader | undefined, a: string, b: string, cosine: number) => (r ? r.score(await r.features(b), await r.features(a), cosine) : undefined);
  for (const p of pairs) {
    const [a, b] = [asked(p.a), asked(p.b)];
    const [va, vb] = await embedder.embed([a, b]);
    const cosine = dot(va!, vb!);
    const guard = mayShareAnswer(keyTerms(b), keyTerms(a));
    const judged = guard && cosine >= threshold;
    out.push({ cosine, guard, pair: judged ? await score(reader, a, b, cosine) : undefined, base: judged ? await score(base, a, b, cosine) : undefined, duplicate: p.duplicate });
  }
  return out;
}

/** Precision of the plain cosine (no guard) at the least threshold whose recall reaches `recall`. */
function plainAt(rows: readonly PairReading[], recall: number): { precision: number; recall: number; threshold: number } {
  const sorted = [...rows].sort((x, y) => y.cosine - x.cosine);
  const positives = rows.filter((r) => r.duplicate).length;
  let right = 0;
  for (const [i, r] of sorted.entries()) {
    if (r.duplicate) right++;
    if (right / positives >= recall) return { precision: right / (i + 1), recall: right / positives, threshold: r.cosine };
  }
  return { precision: right / rows.length, recall: 1, threshold: -1 };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * Quora (QQP) pairs one at a time (`a` stored, `b` asked): each decision's precision and recall
 * beside a plain cosine cache's precision at the same recall on the same pairs.
 */
export async function quoraTable(embedder: WithBase, pairs: readonly QqpPair[], asked: (q: string) => string, threshold: number, label: string): Promise<string[]> {
  const rows = await read(embedder, pairs, asked, threshold);
  const positives = rows.filter((r) => r.duplicate).length;
  const reader = embedder.pairReader;
  const base = baseAlone(embedder);
  const decisions: [string, (r: PairReading) => boolean][] = [
    [`shipped: cosine >= ${threshold}, guard, ${pairLabel(reader)}`, (r) => r.guard && r.cosine >= threshold && (r.pair === undefined || r.pair >= reader!.threshold)],
    ...(base ? [[`cosine >= ${threshold}, guard, ${pairLabel(base)} alone (the decision before the role model)`, (r: PairReading) => r.guard && r.cosine >= threshold && (r.base === undefined || r.base >= base.threshold)] as [string, (r: PairReading) => boolean]] : []),
    [`cosine >= ${threshold}, guard (no pair model)`, (r) => r.guard && r.cosine >= threshold],
    ...(reader ? [0.3, 0.5, 0.7, 0.9].map((p): [string, (r: PairReading) => boolean] => [`cosine >= ${threshold}, guard, ${pairLabel(reader, p)}`, (r) => r.guard && r.cosine >= threshold && (r.pair ?? 0) >= p]) : []),
  ];
  const lines = [
    `Quora (${label}: ${pairs.length} pairs, ${positives} labelled duplicates; \`a\` stored, \`b\` asked, pair by pair), each decision beside a plain cosine cache (nearest at cosine >= t, no guard) at the same recall on the same pairs:`,
    '',
    '| decision | precision | recall | plain cosine cache at that recall: precision (threshold) | difference |',
    '|---|---|---|---|---|',
  ];
  for (const [name, hit] of decisions) {
    const hits = rows.filter(hit);
    const right = hits.filter((r) => r.duplicate).length;
    const [precision, recall] = [right / Math.max(1, hits.length), right / positives];
    const plain = plainAt(rows, recall);
    lines.push(`| ${name} | ${precision.toFixed(3)} | ${pct(recall)} | ${plain.precision.toFixed(3)} (${plain.threshold.toFixed(4)}) | ${(precision - plain.precision >= 0 ? '+' : '') + (precision - plain.precision).toFixed(3)} |`);
  }
  return lines;
}

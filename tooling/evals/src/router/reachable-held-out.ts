/**
 * The held-out rows of `router:reachable` (docs/routing.md, "Embedding clusters as the task
 * kind"): task family, subject and spherical k-means clusters of the prompts' MiniLM vectors,
 * each decided on one half of the prompts (even or odd position) and applied to the other, both
 * ways, averaged; in-sample figures beside them, labelled.
 */
import { nearest, sphericalKMeans } from './clusters.js';
import { type MoveRule, type Outcome, type Tally, heldOutReach, judgedTallies, learnerShares, simpleShares, unitsById } from './held-out-reach.js';
import { served } from './reachable.js';

export interface HeldOutInput {
  outcomes: Outcome[];
  vectors: Float32Array[];
  family: string[];
  subject: string[];
  weakCost: number;
  floor: number;
  ks: readonly number[];
  /** Judged pairs over the stream (5% of 20,000), the share of verdicts flipped, and strong-request costs per judged request. */
  judged: { pairs: number; flip: number; share: number; costEach: number; seeds: number };
}

/** Each prompt's unit on the fitting half and on the other, and how many units there are. */
interface Grouping {
  fit: Int32Array;
  other: Int32Array;
  count: number;
}

type Grouper = (fit: readonly number[], other: readonly number[]) => Grouping;

const byKey = (keys: readonly string[]): Grouper => {
  const ids = new Map([...new Set(keys)].map((k, i) => [k, i]));
  const of = (idx: readonly number[]) => Int32Array.from(idx, (i) => ids.get(keys[i]!)!);
  return (fit, other) => ({ fit: of(fit), other: of(other), count: ids.size });
};

const byCluster = (vectors: readonly Float32Array[], k: number): Grouper => (fit, other) => {
  const centroids = sphericalKMeans(fit.map((i) => vectors[i]!), { k, seed: 1 });
  return { fit: nearest(fit.map((i) => vectors[i]!), centroids), other: nearest(other.map((i) => vectors[i]!), centroids), count: k };
};

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Min / median / max judged pairs over the units that hold any fitting prompt. */
function spread(tallies: readonly Tally[], fit: Int32Array): string {
  const used = new Set(fit);
  const n = tallies.filter((_, u) => used.has(u)).map((t) => t.wins + t.losses + t.ties).sort((a, b) => a - b);
  return `${n[0]} / ${n[Math.floor(n.length / 2)]} / ${n.at(-1)}`;
}

/** Figures of one grouping, one list per figure over both halves (and the judged streams). */
type Figures = Record<'inQ' | 'inC' | 'atQ' | 'atC' | 'apQ' | 'apC' | 'paQ' | 'paC', number[]> & { learned: { q: number[]; c: number[] }[]; samples: string };

/** One direction: units fitted on `fitIdx`, applied to `otherIdx`; appends to `f`. */
function measure(input: HeldOutInput, group: Grouper, fitIdx: readonly number[], otherIdx: readonly number[], f: Figures): void {
  const g = group(fitIdx, otherIdx);
  const fitOutcomes = fitIdx.map((i) => input.outcomes[i]!);
  const fit = unitsById(fitOutcomes, g.fit, g.count, input.weakCost);
  const other = unitsById(otherIdx.map((i) => input.outcomes[i]!), g.other, g.count, input.weakCost);
  const h = heldOutReach(fit, other, input.floor);
  for (const [q, c, x] of [['inQ', 'inC', h.inSample.oracle], ['atQ', 'atC', h.inSample.atFloor], ['apQ', 'apC', h.applied], ['paQ', 'paC', h.path]] as const) {
    f[q].push(x.quality);
    f[c].push(x.cost);
  }
  const strongAccuracy = fitOutcomes.filter((o) => o.strong).length / fitOutcomes.length;
  const gateway: MoveRule = { tolerance: 0.05, judgeError: input.judged.flip };
  const atFloor: MoveRule = { tolerance: ((1 - input.floor) * strongAccuracy) / 2, judgeError: input.judged.flip };
  for (let seed = 1; seed <= input.judged.seeds; seed++) {
    const tallies = judgedTallies(fitOutcomes, g.fit, g.count, { pairs: input.judged.pairs, flip: input.judged.flip, seed });
    if (f.samples === '') f.samples = spread(tallies, g.fit);
    const rules = [learnerShares(tallies, gateway, input.weakCost), learnerShares(tallies, atFloor, input.weakCost), simpleShares(tallies, atFloor, 1.645), simpleShares(tallies, atFloor, 0)];
    rules.forEach((shares, j) => {
      const s = served(other, shares);
      f.learned[j]!.q.push(s.quality);
      f.learned[j]!.c.push(s.cost);
    });
  }
}

/** Prints both tables: what a choice on one half reaches on the other, and what ~1,000 judged pairs let a rule choose. */
export function printHeldOut(input: HeldOutInput): void {
  const all = input.outcomes.map((_, i) => i);
  const halves = [all.filter((i) => i % 2 === 0), all.filter((i) => i % 2 === 1)] as const;
  const groupers: [string, Grouper][] = [
    ["task family (the router's)", byKey(input.family)],
    ["subject (the data's)", byKey(input.subject)],
    ...input.ks.map((k): [string, Grouper] => [`embedding cluster, k = ${k}`, byCluster(input.vectors, k)]),
  ];
  const judging = input.judged.share * input.judged.costEach;
  const reachRows: string[] = [];
  const learnRows: string[] = [];
  for (const [name, group] of groupers) {
    const f: Figures = { inQ: [], inC: [], atQ: [], atC: [], apQ: [], apC: [], paQ: [], paC: [], learned: [0, 1, 2, 3].map(() => ({ q: [], c: [] })), samples: '' };
    measure(input, group, halves[0], halves[1], f);
    measure(input, group, halves[1], halves[0], f);
    const m = (key: keyof Omit<Figures, 'learned' | 'samples'>) => pct(mean(f[key]));
    reachRows.push(`| ${name} | ${m('inQ')}, ${m('inC')} | ${m('atC')} | ${m('apC')} (quality ${m('apQ')}) | **${m('paC')}** (quality ${m('paQ')}) |`);
    const cells = f.learned.map(({ q, c }) => `${pct(mean(q))}, ${pct(mean(c))} (${pct(mean(c) + judging)})`);
    learnRows.push(`| ${name} | ${f.samples} | ${cells.join(' | ')} |`);
  }
  console.log('\nDecided on one half (even or odd position), applied to the other, both ways averaged; in-sample = on the fitting half\'s own outcomes (optimistic).');
  console.log(`\n| unit | in-sample per-unit oracle (quality, cost) | in-sample least cost at >= ${pct(input.floor)} | its shares on the other half: cost (quality) | other half along the fitting order, least cost at >= ${pct(input.floor)} |`);
  console.log('|---|---|---|---|---|');
  for (const row of reachRows) console.log(row);
  console.log(`\nLearned from ${input.judged.pairs} judged pairs drawn from the fitting half (${pct(input.judged.flip)} of verdicts flipped, ${input.judged.seeds} streams x 2 halves), applied to the other: quality, cost (with judging, +${pct(judging)}).`);
  console.log('\n| unit | judged pairs per unit (min / median / max) | learner, tolerance 0.05 | learner, tolerance at the floor | one-sided 95% bound, tolerance at the floor | point estimate (no bound), tolerance at the floor |');
  console.log('|---|---|---|---|---|---|');
  for (const row of learnRows) console.log(row);
}

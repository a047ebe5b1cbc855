import { createCatalog } from '@svc/catalog';
import { type Verdict, createChoiceLearner, createRouter } from '@svc/router';
import type { Item } from './data.js';
import { seeded } from './metrics.js';

/** One simulated deployment: a strong (current) model, a cheaper candidate, and the judge's settings. */
export interface SimulationSettings {
  strong: { id: string; price: number };
  weak: { id: string; price: number };
  requests: number;
  /** Share of requests shadowed by the other model and judged. */
  judged: number;
  /** Share of the judge's verdicts flipped. */
  flip: number;
  /** The learner's tolerance (0.5 - the bar its lower bound must clear). */
  tolerance: number;
  /** What a judged request costs the judge, in the strong model's price units per judge call, two calls (both orders). */
  judgePrice: number;
  /** Requests between checkpoints. */
  every: number;
  seed: number;
  /** What a task kind is: the router's task family of the prompt, or the data's subject (finer clusters). */
  task: 'family' | 'subject';
  /**
   * How the judged share is spent: `uniform` (each request with probability `judged`), or
   * `unsure` (the same share as a budget, earned per request, spent first where the learner's
   * choice is still open: `ChoiceLearner.unsure`; a settled task kind is judged at a quarter of
   * the share, to notice a change).
   */
  sampler?: 'uniform' | 'unsure';
  /** The judge's error share the learner assumes (`ChoiceLearnerOptions.judgeError`); default 0. */
  judgeError?: number;
  /**
   * The learner's promotion bound (`ChoiceLearnerOptions.bound`): `betting` (default, always-valid,
   * ties read as ties), `sequence` (always-valid for any score in [0, 1], 2026-12-04) or `wilson`
   * (fixed-n, before 2026-12-04).
   */
  bound?: 'betting' | 'sequence' | 'wilson';
}

export interface Checkpoint {
  requests: number;
  /** Quality (share answered right) of the routed stream over the strong model's on the same stream. */
  quality: number;
  /** Cost (served + shadow + judge) over the strong model's on the same stream. */
  cost: number;
  /** Share of requests served by the weak model. */
  weakShare: number;
  /** Share of requests judged. */
  judgedShare: number;
}

export interface SimulationResult {
  checkpoints: Checkpoint[];
  /** The per-task oracle (each task kind served by the model best on it over the stream): quality and cost over the strong model's. */
  oracle: { quality: number; cost: number };
  strongAccuracy: number;
  weakAccuracy: number;
}

/** The judge's verdict from the labels (candidate = the weak model), flipped with probability `flip` (a tie flips to a random win). */
function judge(item: Item, s: SimulationSettings, next: () => number): Verdict {
  const strong = item.correct[s.strong.id] === true;
  const weak = item.correct[s.weak.id] === true;
  const truth: Verdict = strong === weak ? 'tie' : weak ? 'candidate' : 'incumbent';
  if (next() >= s.flip) return truth;
  if (truth === 'tie') return next() < 0.5 ? 'candidate' : 'incumbent';
  return truth === 'candidate' ? 'incumbent' : 'candidate';
}

interface Totals {
  /** Judged requests the budget still allows (`unsure` sampler). */
  credit: number;
  judgedCount: number;
  right: number;
  strongRight: number;
  cost: number;
  weakServed: number;
}

function checkpoint(t: Totals, n: number, s: SimulationSettings): Checkpoint {
  return { requests: n, quality: t.strongRight === 0 ? 1 : t.right / t.strongRight, cost: t.cost / (n * s.strong.price), weakShare: t.weakServed / n, judgedShare: t.judgedCount / n };
}

/** Per task kind, the better model over the stream: its quality and cost relative to the strong model everywhere. */
function oracleOf(stream: readonly { item: Item; kind: string }[], s: SimulationSettings): SimulationResult['oracle'] {
  const byKind = new Map<string, { strong: number; weak: number; n: number }>();
  for (const { item, kind } of stream) {
    const k = byKind.get(kind) ?? { strong: 0, weak: 0, n: 0 };
    k.strong += Number(item.correct[s.strong.id] === true);
    k.weak += Number(item.correct[s.weak.id] === true);
    k.n++;
    byKind.set(kind, k);
  }
  let right = 0;
  let strongRight = 0;
  let cost = 0;
  for (const k of byKind.values()) {
    const weakBest = k.weak >= k.strong;
    right += weakBest ? k.weak : k.strong;
    strongRight += k.strong;
    cost += k.n * (weakBest ? s.weak.price : s.strong.price);
  }
  return { quality: right / strongRight, cost: cost / (stream.length * s.strong.price) };
}

/**
 * Whether this request is judged. `uniform`: with probability `judged`. `unsure`: a budget of
 * `judged` per request (at most 20 requests' worth saved up), spent on every request whose task
 * kind is still open, and at a quarter of the share where the choice is settled.
 */
function sampled(t: Totals, s: SimulationSettings, next: () => number, unsure: () => boolean): boolean {
  if (s.sampler !== 'unsure') return next() < s.judged;
  t.credit = Math.min(t.credit + s.judged, 20);
  if (t.credit < 1) return false;
  if (!unsure() && next() >= s.judged / 4) return false;
  t.credit -= 1;
  return true;
}

/**
 * A stream of requests drawn from labelled outcomes, routed by the per-task learner (task kind:
 * the router's task family of the prompt, or the data's subject), a share of them shadowed and judged from the labels
 * with some verdicts flipped. The library's learner, no gateway.
 */
export function simulate(items: readonly Item[], s: SimulationSettings): SimulationResult {
  const next = seeded(s.seed);
  const router = createRouter({ catalog: createCatalog([]), quality: false, embedder: false, learner: false });
  const kinds = new Map<string, string>();
  const kindOf = ({ prompt, subject }: Item) => {
    if (s.task === 'subject') return subject;
    let kind = kinds.get(prompt);
    if (kind === undefined) {
      kind = router.classify({ model: 'svc/auto', messages: [{ role: 'user', content: prompt }], stream: false, n: 1, includeUsage: false }).taskFamily;
      kinds.set(prompt, kind);
    }
    return kind;
  };
  const learner = createChoiceLearner({ judgeError: s.judgeError ?? 0, bound: s.bound ?? 'betting' });
  const totals: Totals = { credit: 0, judgedCount: 0, right: 0, strongRight: 0, cost: 0, weakServed: 0 };
  const checkpoints: Checkpoint[] = [];
  const stream: { item: Item; kind: string }[] = [];
  for (let n = 1; n <= s.requests; n++) {
    const item = items[Math.floor(next() * items.length)]!;
    const taskKind = kindOf(item);
    stream.push({ item, kind: taskKind });
    const request = { orgId: 'sim', taskKind, incumbent: { id: s.strong.id, cost: s.strong.price }, candidates: [{ id: s.weak.id, cost: s.weak.price }], tolerance: s.tolerance };
    const choice = learner.choose(request);
    const served = choice.model === s.weak.id ? s.weak : s.strong;
    totals.right += Number(item.correct[served.id] === true);
    totals.strongRight += Number(item.correct[s.strong.id] === true);
    totals.cost += served.price;
    totals.weakServed += Number(served === s.weak);
    if (sampled(totals, s, next, () => learner.unsure(request))) {
      totals.judgedCount++;
      totals.cost += (served === s.weak ? s.strong.price : s.weak.price) + 2 * s.judgePrice;
      learner.recordJudgedPair({ orgId: 'sim', taskKind, incumbent: s.strong.id, candidate: s.weak.id, verdict: judge(item, s, next) });
    }
    if (n % s.every === 0 || n === s.requests) checkpoints.push(checkpoint(totals, n, s));
  }
  const accuracy = (id: string) => stream.filter(({ item }) => item.correct[id] === true).length / stream.length;
  return { checkpoints, oracle: oracleOf(stream, s), strongAccuracy: accuracy(s.strong.id), weakAccuracy: accuracy(s.weak.id) };
}

import { createCatalog } from '@svc/catalog';
import { type ChoiceLearner, type ChoiceRequest, type JudgingOrder, type Router, type Verdict, createChoiceLearner, createJudgingOrder, createRouter, defaultJudgedGate, judgeRouteChange } from '@svc/router';
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
   * the share, to notice a change); `ordered` (the same budget, spent on an open request whose
   * task kind ranks first in `JudgingOrder`, the most valuable open move; on any other request,
   * a settled one at a quarter of the share, only with the saved-up budget full, so nothing is
   * spent off the first open move that it could have had).
   */
  sampler?: 'uniform' | 'unsure' | 'ordered';
  /** The judge's error share the learner assumes (`ChoiceLearnerOptions.judgeError`); default 0. */
  judgeError?: number;
  /**
   * The learner's promotion bound (`ChoiceLearnerOptions.bound`): `betting` (default, always-valid,
   * ties read as ties), `sequence` (always-valid for any score in [0, 1], 2026-12-04) or `wilson`
   * (fixed-n, before 2026-12-04).
   */
  bound?: 'betting' | 'sequence' | 'wilson';
  /** The error share of a move up's bound (`ChoiceLearnerOptions.upAlpha`); default the learner's (`UP_ALPHA`). */
  upAlpha?: number;
  /** Whether a kind moved up is held there until the proof down (`ChoiceLearnerOptions.holdUp`); default the learner's (true). */
  holdUp?: boolean;
  /** Whether a cheap incumbent not yet plausibly within the tolerance gives way to the pricier model (`ChoiceLearnerOptions.cautiousStart`); default the learner's (false). */
  cautiousStart?: boolean;
  /**
   * Whose first choice a request's incumbent is: `router` (default since 2026-12-05), the shipped
   * router's own choice between the live run's catalog pair (`openai/gpt-5.4` standing for the
   * strong model, `openai/gpt-5.4-nano` for the weak one; `svc/auto`, no embedding, as the gateway
   * routes them by catalog priors, cost and the heuristic complexity), so a share of the stream
   * starts on the weak model as it does through the gateway (without the gateway's embedding: it
   * reads text signals only); `strong`: always the strong model (the stream before 2026-12-05); a
   * number: that share of the prompts, drawn once per prompt (the live run's router put a share
   * on the weak model no better than a random one, docs/routing.md).
   */
  incumbent?: 'router' | 'strong' | number;
  /**
   * What the judging sampler (`unsure`, `ordered`) is asked about: `routed` (default), the
   * request as the learner chose for it (the router's first choice as the incumbent, whatever a
   * cautious start served); `served`, as the gateway's shadow sampler asks (`learnerFocus`,
   * `learnerOrder`): the model that served as the incumbent, the other model as the candidate.
   */
  feed?: 'routed' | 'served';
  /** The learner's revisit share (`ChoiceLearnerOptions.revisit`; the gateway's 0.05); default 0. */
  revisit?: number;
  /**
   * Whether a learned move (`reason: 'learned'`) goes through the gateway's regression gate
   * (`judgeRouteChange` at `defaultJudgedGate`, as `applyLearnedChoice` does): refused, the
   * incumbent serves. Default false (the library's learner alone; a start is never gated).
   */
  gate?: boolean;
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
  /** Share of the stream whose incumbent (before the learner) was the weak model. */
  incumbentWeakShare: number;
}

/** The judge's verdict from the labels on `candidate` against `incumbent`, flipped with probability `flip` (a tie flips to a random win). */
function judge(item: Item, pair: { incumbent: string; candidate: string }, s: SimulationSettings, next: () => number): Verdict {
  const served = item.correct[pair.incumbent] === true;
  const tried = item.correct[pair.candidate] === true;
  const truth: Verdict = served === tried ? 'tie' : tried ? 'candidate' : 'incumbent';
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
  weakIncumbent: number;
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

/** The saved-up judging budget of the `unsure` and `ordered` samplers, in requests. */
const MAX_CREDIT = 20;

interface Sampler {
  learner: ChoiceLearner;
  order: JudgingOrder;
  next: () => number;
}

/**
 * Whether this request is judged. `uniform`: with probability `judged`. `unsure`: a budget of
 * `judged` per request (at most 20 requests' worth saved up), spent on every request whose task
 * kind is still open, and at a quarter of the share where the choice is settled. `ordered`: the
 * same budget, spent on the open request whose kind ranks first, on others only when it is full.
 */
function sampled(t: Totals, s: SimulationSettings, on: Sampler, request: ChoiceRequest): boolean {
  if (s.sampler !== 'unsure' && s.sampler !== 'ordered') return on.next() < s.judged;
  on.order.seen(request);
  t.credit = Math.min(t.credit + s.judged, MAX_CREDIT);
  if (t.credit < 1) return false;
  const open = on.learner.unsure(request);
  if (s.sampler === 'ordered' && t.credit + s.judged <= MAX_CREDIT && !(open && on.order.first(request))) return false;
  if (!open && on.next() >= s.judged / 4) return false;
  t.credit -= 1;
  return true;
}

/** The live run's catalog pair, standing for the strong and the weak model when the shipped router picks the incumbent. */
const ROUTED_PAIR = { strong: 'openai/gpt-5.4', weak: 'openai/gpt-5.4-nano' } as const;

const asked = (prompt: string) => ({ model: 'svc/auto', messages: [{ role: 'user' as const, content: prompt }], stream: false, n: 1, includeUsage: false });

/** Each prompt's incumbent (the strong or the weak model), the shipped router's first choice between the routed pair, read once per prompt. */
function incumbentOf(s: SimulationSettings): (item: Item) => SimulationSettings['strong'] {
  const { incumbent } = s;
  if (incumbent === 'strong') return () => s.strong;
  const router = createRouter({ catalog: createCatalog(), embedder: false, learner: false });
  const draw = seeded(s.seed + 7919);
  const weakFirst = typeof incumbent === 'number' ? () => draw() < incumbent : (prompt: string) => router.route(asked(prompt), { candidates: [ROUTED_PAIR.strong, ROUTED_PAIR.weak] }).model.id === ROUTED_PAIR.weak;
  const chosen = new Map<string, boolean>();
  return ({ prompt }) => {
    let weak = chosen.get(prompt);
    if (weak === undefined) {
      weak = weakFirst(prompt);
      chosen.set(prompt, weak);
    }
    return weak ? s.weak : s.strong;
  };
}

/** The router's task family of a prompt (read once per prompt), or the data's subject. */
function kindsOf(s: SimulationSettings): (item: Item) => string {
  if (s.task === 'subject') return ({ subject }) => subject;
  const router: Router = createRouter({ catalog: createCatalog([]), quality: false, embedder: false, learner: false });
  const kinds = new Map<string, string>();
  return ({ prompt }) => {
    let kind = kinds.get(prompt);
    if (kind === undefined) {
      kind = router.classify(asked(prompt)).taskFamily;
      kinds.set(prompt, kind);
    }
    return kind;
  };
}

/** Whether the learner's choice for `request` is its one candidate, and (`gate`) the gateway's gate lets a learned move through. */
function movedTo(learner: ChoiceLearner, request: ChoiceRequest, s: SimulationSettings): boolean {
  const choice = learner.choose(request);
  const to = request.candidates[0]!.id;
  if (choice.model !== to) return false;
  if (!s.gate || choice.reason !== 'learned') return true;
  const { orgId, taskKind, incumbent } = request;
  const counts = { ...learner.judgedCounts({ orgId, taskKind, candidate: to, incumbent: incumbent.id }), taskKind, model: to, against: incumbent.id };
  return judgeRouteChange({ taskKind, from: incumbent.id, to }, [counts], defaultJudgedGate).status === 'promoted';
}

/**
 * A stream of requests drawn from labelled outcomes, each with its incumbent (the shipped
 * router's choice, or always the strong model: `incumbent`), routed by the per-task learner (task
 * kind: the router's task family of the prompt, or the data's subject); a share of them shadowed
 * by the other model and judged from the labels with some verdicts flipped. The library's
 * learner, no gateway.
 */
export function simulate(items: readonly Item[], s: SimulationSettings): SimulationResult {
  const next = seeded(s.seed);
  const kindOf = kindsOf(s);
  const incumbentFor = incumbentOf(s);
  const learner = createChoiceLearner({ judgeError: s.judgeError ?? 0, bound: s.bound ?? 'betting', upAlpha: s.upAlpha, holdUp: s.holdUp, cautiousStart: s.cautiousStart, revisit: s.revisit, random: s.revisit ? next : undefined });
  const sampler: Sampler = { learner, order: createJudgingOrder(learner), next };
  const totals: Totals = { credit: 0, judgedCount: 0, right: 0, strongRight: 0, cost: 0, weakServed: 0, weakIncumbent: 0 };
  const checkpoints: Checkpoint[] = [];
  const stream: { item: Item; kind: string }[] = [];
  for (let n = 1; n <= s.requests; n++) {
    const item = items[Math.floor(next() * items.length)]!;
    const taskKind = kindOf(item);
    stream.push({ item, kind: taskKind });
    const incumbent = incumbentFor(item);
    const other = incumbent === s.strong ? s.weak : s.strong;
    totals.weakIncumbent += Number(incumbent === s.weak);
    const request = { orgId: 'sim', taskKind, incumbent: { id: incumbent.id, cost: incumbent.price }, candidates: [{ id: other.id, cost: other.price }], tolerance: s.tolerance };
    const served = movedTo(learner, request, s) ? other : incumbent;
    const tried = served === s.strong ? s.weak : s.strong;
    totals.right += Number(item.correct[served.id] === true);
    totals.strongRight += Number(item.correct[s.strong.id] === true);
    totals.cost += served.price;
    totals.weakServed += Number(served === s.weak);
    const asked = s.feed === 'served' ? { ...request, incumbent: { id: served.id, cost: served.price }, candidates: [{ id: tried.id, cost: tried.price }] } : request;
    if (sampled(totals, s, sampler, asked)) {
      totals.judgedCount++;
      totals.cost += tried.price + 2 * s.judgePrice;
      const pair = { incumbent: served.id, candidate: tried.id };
      learner.recordJudgedPair({ orgId: 'sim', taskKind, ...pair, verdict: judge(item, pair, s, next) });
    }
    if (n % s.every === 0 || n === s.requests) checkpoints.push(checkpoint(totals, n, s));
  }
  const accuracy = (id: string) => stream.filter(({ item }) => item.correct[id] === true).length / stream.length;
  return { checkpoints, oracle: oracleOf(stream, s), strongAccuracy: accuracy(s.strong.id), weakAccuracy: accuracy(s.weak.id), incumbentWeakShare: totals.weakIncumbent / s.requests };
}

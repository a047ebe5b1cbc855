import { type BoundOptions, type Bounds, UP_ALPHA, boundsOf, estimateOf } from './choice-bounds.js';
import { type FeedbackScore, type JudgedPair, type Query, type Tables, judgedCounts, key, recordPair, recordScore, snapshotOf, tablesOf, tallyOf } from './choice-tallies.js';
import type { WinEstimate } from './win-estimate.js';
import type { JudgedCounts } from './route-gate.js';
import type { ChoiceSnapshot } from './snapshot.js';

export { UP_ALPHA } from './choice-bounds.js';
export type { FeedbackScore, JudgedPair, Verdict } from './choice-tallies.js';

/** A model the learner may choose, with the cost of serving the request with it (any unit, the same for all). */
export interface ChoiceOption {
  id: string;
  cost: number;
}

export interface ChoiceRequest {
  orgId: string;
  taskKind: string;
  /** The current choice and its cost. */
  incumbent: ChoiceOption;
  /**
   * The alternatives: a cheaper one may replace the incumbent when it is not worse than the
   * tolerance, a pricier one when it is better, unless the incumbent is proven within the
   * tolerance of it; one of the same cost is not considered.
   */
  candidates: readonly ChoiceOption[];
  /** How much worse than the incumbent (in win rate below 0.5) a cheaper model may be, and the incumbent than a pricier one and stay: 0..0.5. */
  tolerance: number;
}

/** The learner's answer: the incumbent, a cheaper or a pricier model it is confident about, or one it explores. */
export interface Choice {
  model: string;
  reason: 'incumbent' | 'learned' | 'explore' | 'start';
  /** The chosen candidate's estimate (absent for the incumbent). */
  estimate?: WinEstimate;
}

export interface ChoiceLearnerOptions extends BoundOptions {
  /**
   * Share of the judge's verdicts assumed wrong (0..0.45, default 0): the tolerance is applied to
   * the true gap, which such a judge shows shrunk by (1 - 2 x the share). A function gives each
   * organisation its own (the gateway's shadow-judging `judge_error_rate`); it is asked only when
   * a choice is made for an organisation the learner knows, and its answer is clamped too.
   */
  judgeError?: number | ((orgId: string) => number);
  /** Judged pairs + feedback samples a candidate needs before it may replace the incumbent. Default 20. */
  minSamples?: number;
  /** Share of choices (0..0.05, clamped) that try a candidate (cheaper ones first, then pricier) not yet ruled out and not yet sampled enough. Default 0. */
  explore?: number;
  /**
   * Share of a promoted kind's choices (0..0.2, clamped) that still go to the incumbent, so that a
   * promotion stays revisitable: on those requests the promoted model is the candidate again, and
   * `unsure` says a judged pair may still change the choice, so a judging sampler judges them and
   * a wrong promotion is undone once its bound falls below the bar. Default 0 (off).
   */
  revisit?: number;
  /**
   * Hold a kind once moved up (default true): it stays on the pricier model until the cheaper one
   * is proven within the tolerance of it, rather than moving back each time the move up's bound
   * dips to 0.5 again (a weak lead's bound crosses 0.5 and falls back for hundreds of pairs, and
   * the kind flip-flopped with it: docs/routing.md, "Held up", 2026-12-05). The held kinds are in
   * the snapshot (`up`) and merge across instances. `false`: the rule before.
   */
  holdUp?: boolean;
  /**
   * A cautious start (default false): from a cheap incumbent's first judged pair against a pricier
   * candidate, the pricier model serves (`reason: 'start'`, not a learned route change, so not
   * gated) for at least `START_PAIRS` pairs, also once its move up is proven (that move, learned and
   * gated, takes over when the start ends, on the start's pairs); at
   * `START_PAIRS` the start ends if the pricier model reads at or under 0.5 or the cheap one is
   * plausibly within the tolerance of it (the pricier model's upper bound at `upAlpha` at most 0.5 +
   * the tolerance), and at twice `START_PAIRS` whatever. The router's cheap guess is then held to
   * that many pairs before it serves a kind, and a kind the pricier model wins is served by it from
   * its first pair, not after the ~130-500 pairs its move up needs (docs/routing.md, "A cautious
   * start" and "Under-evidenced kinds judged again", 2026-12-06). It costs the pricier model's
   * price on those requests, never quality.
   * A function gives each organisation its own (the gateway's shadow-judging `cautious_start`); an
   * organisation it answers false for is chosen for exactly as with `false`. Whatever it answers,
   * a start whose end condition is met at a choice is recorded as ended (`startEnded`), so an
   * organisation that turns it off and on again finds the state it would have had with it on all along.
   */
  cautiousStart?: boolean | ((orgId: string) => boolean);
  /** Uniform [0, 1) source for exploration and revisits. Default Math.random. */
  random?: () => number;
}

/**
 * Per organisation and task kind: each candidate's win rate against the current choice, learned
 * from judged pairs and feedback scores, and the cheapest model whose win rate is within the
 * tolerance with confidence; or, when a pricier model is credibly better than the current choice
 * (at `upAlpha`: a move up risks only cost) and the current choice is not proven within the
 * tolerance of it, the cheapest such model. Pure in-memory state, O(1) per record; shared across instances by `serialize`/`load` and
 * `mergeChoiceSnapshots`.
 */
export interface ChoiceLearner {
  recordJudgedPair(pair: JudgedPair): void;
  recordFeedback(feedback: FeedbackScore): void;
  /** `candidate`'s judged pairs against `incumbent` for this organisation and task kind (its wins; feedback not counted): what the gate reads. */
  judgedCounts(query: { orgId: string; taskKind: string; candidate: string; incumbent: string }): JudgedCounts;
  /** `candidate`'s estimated win rate against `incumbent` for this organisation and task kind. */
  winRate(query: { orgId: string; taskKind: string; candidate: string; incumbent: string }): WinEstimate;
  /** The model for this request. Not only a read: a move up it finds proven is held from then on, a held one proven back down let go (`holdUp`). */
  choose(request: ChoiceRequest): Choice;
  /**
   * True while a judged pair may still change this request's choice: no candidate is proven (a
   * proven cheaper one leaves the pricier ones open), and one has fewer than `minSamples` samples
   * or a win rate on the promoting side of its bar (at or above 0.5 - the tolerance for a cheaper
   * model; for a pricier one at or above 0.5, the incumbent not yet proven within the tolerance of
   * it: not yet proven only for want of samples) with an interval still as wide as the tolerance (a narrower one sitting on the bar may never decide:
   * it is not worth judging); with `revisit` on, also once one is proven (the requests that still
   * reach the incumbent are the ones a judged pair can undo the promotion on); and while a kind is
   * held up (`holdUp`) on a lead no longer credible (the move up's bound at `upAlpha` back at or
   * under 0.5), so the proof down, if it comes, comes sooner; and while a kind is in its cautious
   * start (`cautiousStart`), asked about either model. A judging sampler spends more of its share there.
   */
  unsure(request: ChoiceRequest): boolean;
  /** True once anything was recorded for this organisation and task kind (a cheap test before `choose`). */
  knows(orgId: string, taskKind: string): boolean;
  /** Judged pairs and feedback scores recorded by this instance. */
  updates(): number;
  serialize(): ChoiceSnapshot;
  /** Replaces the state; throws `ChoiceSnapshotError` for a snapshot of another shape. */
  load(snapshot: unknown): void;
}

function estimate(tables: Tables, bounds: Bounds, query: Query): WinEstimate {
  return estimateOf(query, tallyOf(tables, query), bounds);
}

interface Settings {
  bounds: Bounds;
  /** The bounds at `upAlpha`: a move up's lower bound. */
  upBounds: Bounds;
  judgeError: (orgId: string) => number;
  minSamples: number;
  explore: number;
  revisit: number;
  holdUp: boolean;
  /** Whether the organisation's kinds get a cautious start. */
  cautiousStart: (orgId: string) => boolean;
  /** Whether ended starts are recorded: false only when no organisation may ever have one (`cautiousStart: false`, the snapshot as before). */
  tracksStarts: boolean;
  random: () => number;
}

/** A judge's error share as the learner takes it: 0..0.45 (not a number: 0). */
const clampJudgeError = (share: number): number => (share > 0 ? Math.min(0.45, share) : 0);

/** The tolerance as the learner holds it to the judged win rate: shrunk by the judge's error share (a judge wrong on a share e of verdicts reads a true gap as (1 - 2e) of it). */
const shownTolerance = (s: Settings, request: ChoiceRequest): number => (1 - 2 * clampJudgeError(s.judgeError(request.orgId))) * Math.min(0.5, Math.max(0, request.tolerance));

/**
 * A candidate against the incumbent: its estimate, and the win rate its lower bound must clear.
 * `within` (a pricier model only): the win rate its upper bound must exceed, else the incumbent is
 * proven within the tolerance of it and stays. `lower`: the bound held to the bar (a pricier
 * model's at `upAlpha`, a cheaper one's the estimate's own).
 */
interface Move {
  estimate: WinEstimate;
  bar: number;
  up: boolean;
  within: number;
  lower: number;
  /** A pricier model the kind was moved up to and is held on (`holdUp`): its bound need not stay above the bar. */
  held: boolean;
  /** A pricier model's upper bound at `upAlpha`: while above `within`, the incumbent is not even plausibly within the tolerance of it (`cautiousStart`). */
  plausible: number;
  /** The cautious start against this pricier model ended (once `plausible` was at or under `within`): it does not start again. */
  ended: boolean;
}

/**
 * The request's candidates as moves, cheaper ones first (cheapest first), then pricier ones
 * (cheapest first); one of the incumbent's cost is no move. A cheaper model must be at most the
 * tolerance worse (lower bound at least 0.5 - tolerance). A pricier model must be better (lower
 * bound at `upAlpha` above 0.5: credible, as a move up risks only cost), and the cheap incumbent
 * must not be proven within the tolerance of it (its
 * upper bound above 0.5 + tolerance, which is the incumbent's own lower bound against it below
 * 0.5 - tolerance: the bounds are symmetric). So the router's own cheap choice is held to the proof
 * a learned cheap route needs, and a pair of models never qualifies both ways at once.
 */
function movesOf(tables: Tables, s: Settings, request: ChoiceRequest): Move[] {
  const { orgId, taskKind, incumbent } = request;
  const tolerance = shownTolerance(s, request);
  const byCost = [...request.candidates].filter((c) => c.id !== incumbent.id && c.cost !== incumbent.cost).sort((x, y) => x.cost - y.cost);
  const moves = byCost.map((c) => {
    const up = c.cost > incumbent.cost;
    const query = { orgId, taskKind, candidate: c.id, incumbent: incumbent.id };
    const counted = tallyOf(tables, query);
    const found = estimateOf(query, counted, s.bounds);
    const upBound = up ? s.upBounds(counted) : found;
    const k = key(orgId, taskKind, incumbent.id, c.id);
    const held = up && s.holdUp && tables.up.has(k);
    return { estimate: found, bar: up ? 0.5 : 0.5 - tolerance, up, within: up ? 0.5 + tolerance : 0, lower: upBound.lower, held, plausible: upBound.upper, ended: tables.startEnded.has(k) };
  });
  return [...moves.filter((m) => !m.up), ...moves.filter((m) => m.up)];
}

const sampledEnough = (s: Settings, m: Move): boolean => m.estimate.judged + m.estimate.feedback >= s.minSamples;
/** Enough samples and a lower bound past the bar (a pricier model: above 0.5 at `upAlpha`, or held there, with the incumbent not proven within the tolerance of it). */
const provenMove = (s: Settings, m: Move): boolean => sampledEnough(s, m) && (m.up ? (m.held || m.lower > m.bar) && m.estimate.upper > m.within : m.lower >= m.bar);

/** A move up proven is held from now on; a held one whose incumbent is proven within the tolerance of it (the proof down) is let go. */
function holdMovesUp(tables: Tables, s: Settings, request: ChoiceRequest, moves: readonly Move[]): void {
  if (!s.holdUp) return;
  const { orgId, taskKind, incumbent } = request;
  for (const m of moves) {
    if (!m.up || m.held === provenMove(s, m)) continue;
    const k = key(orgId, taskKind, incumbent.id, m.estimate.model);
    if (m.held) tables.up.delete(k);
    else tables.up.set(k, [orgId, taskKind, incumbent.id, m.estimate.model]);
  }
}

/**
 * Judged pairs (between the two models, on the kind) a cautious start lasts at least (a move up proven
 * meanwhile takes over when it ends); at this count it ends on a pricier model read at or under 0.5 or a cheap one
 * plausibly within the tolerance, and at twice it whatever the pairs say: a bound on what it costs
 * where nothing is gained. Ended by the bound alone, a start is given back on a chance dip: a kind
 * the pricier model wins by 0.52-0.55 reads 0.48-0.52 on 100-200 pairs as often as an even kind
 * does, and no end rule at 5% judged tells them apart on fewer pairs (docs/routing.md,
 * "Under-evidenced kinds judged again", 2026-12-06).
 */
export const START_PAIRS = 200;

/**
 * The pricier model a cautious start serves (`cautiousStart`), when no move is proven: the cheapest
 * one judged against the incumbent on this kind (the one the deployment is comparing it with; a
 * pricier model never judged never takes a kind) whose start lasts (`startLasts`).
 */
const startOf = (s: Settings, orgId: string, moves: readonly Move[]): Move | undefined => (s.cautiousStart(orgId) ? moves.find((m) => startBegun(m) && startLasts(m)) : undefined);

/** A pricier model a cautious start has begun against: judged against the cheap incumbent at least once, and not ended before. */
const startBegun = (m: Move): boolean => m.up && !m.ended && m.estimate.judged > 0;

/**
 * A begun start goes on for its first `START_PAIRS` pairs whatever they say; then while the pricier
 * model reads above 0.5 and the incumbent is not yet plausibly within the tolerance, up to twice
 * `START_PAIRS`.
 */
const startLasts = (m: Move): boolean => m.estimate.judged < START_PAIRS || (m.estimate.judged < 2 * START_PAIRS && m.estimate.winRate > 0.5 && m.plausible > m.within);

/**
 * A cautious start that had its `START_PAIRS` and whose pricier model reads at or under 0.5 or whose
 * cheaper incumbent is now plausibly within the tolerance, or that had twice `START_PAIRS`, ends
 * for good (a bound at `upAlpha` wanders back over the line on an even kind for hundreds of pairs); recorded for an organisation that has its start off too, so the ended set
 * depends on the pairs and looks alone, not on when the setting was on.
 */
function endStarts(tables: Tables, s: Settings, request: ChoiceRequest, moves: readonly Move[]): void {
  if (!s.tracksStarts) return;
  const { orgId, taskKind, incumbent } = request;
  for (const m of moves) {
    if (startBegun(m) && !startLasts(m)) tables.startEnded.set(key(orgId, taskKind, incumbent.id, m.estimate.model), [orgId, taskKind, incumbent.id, m.estimate.model]);
  }
}

/** The proven move, if any: a pricier model first (the incumbent falls short of it, so a cheaper one within the tolerance of the incumbent is no answer), else the cheapest cheaper one. */
const provenOf = (s: Settings, moves: readonly Move[]): Move | undefined => moves.find((m) => m.up && provenMove(s, m)) ?? moves.find((m) => provenMove(s, m));

/**
 * Whether a lasting start serves: with no move proven, or with the move up to its own pricier model
 * proven. The start serves that model ungated until it ends, and the move up then goes to the
 * gateway's gate on the start's pairs; taken at once, the move up went to the gate on fewer pairs
 * than its Wilson interval needs and was refused while the cheap model served (live seed 1:
 * 93.7% at 2,000 requests; docs/routing.md, "Under-evidenced kinds judged again").
 */
const startServes = (proven: Move | undefined, start: Move | undefined): start is Move =>
  start !== undefined && (proven === undefined || (proven.up && proven.estimate.model === start.estimate.model));

function choose(tables: Tables, s: Settings, request: ChoiceRequest): Choice {
  const { incumbent } = request;
  const moves = movesOf(tables, s, request);
  holdMovesUp(tables, s, request, moves);
  endStarts(tables, s, request, moves);
  const proven = provenOf(s, moves);
  const start = startOf(s, request.orgId, moves);
  if (startServes(proven, start)) return { model: start.estimate.model, reason: 'start', estimate: start.estimate };
  if (proven && s.revisit > 0 && s.random() < s.revisit) return { model: incumbent.id, reason: 'incumbent' };
  if (proven) return { model: proven.estimate.model, reason: 'learned', estimate: proven.estimate };
  if (s.explore > 0 && s.random() < s.explore) {
    const open = moves.find((m) => !sampledEnough(s, m) && m.estimate.upper >= m.bar);
    if (open) return { model: open.estimate.model, reason: 'explore', estimate: open.estimate };
  }
  return { model: incumbent.id, reason: 'incumbent' };
}

/**
 * An undecided candidate whose interval is already narrower than the tolerance: more pairs only
 * say on which side of the bar a win rate known to within the tolerance lies, which may take
 * without end when it sits on the bar; judging there is spent for nothing.
 */
const pinned = (e: WinEstimate, request: ChoiceRequest): boolean => e.upper - e.lower < request.tolerance;

/** A move a judged pair may still make: too few samples, or a win rate on the bar's far side with an interval wider than the tolerance (a pricier model's: and the incumbent not yet proven within the tolerance of it). */
const openMove = (s: Settings, m: Move, request: ChoiceRequest): boolean => !sampledEnough(s, m) || (m.estimate.winRate >= m.bar && m.estimate.upper > m.within && !pinned(m.estimate, request));

/**
 * A request served by the pricier model of a cautious start (its incumbent is the start's pricier
 * model, a candidate the cheap choice): open while the start lasts, so a sampler that asks about
 * the served model judges the kind until its start ends (twice `START_PAIRS` at most), even where the
 * cheap model reads below its own bar.
 */
function servedByStart(tables: Tables, s: Settings, request: ChoiceRequest): boolean {
  if (!s.cautiousStart(request.orgId)) return false;
  return request.candidates.some((c) => {
    if (c.cost >= request.incumbent.cost) return false;
    const moves = movesOf(tables, s, { ...request, incumbent: c, candidates: [request.incumbent] });
    return startServes(provenOf(s, moves), startOf(s, request.orgId, moves));
  });
}

function unsure(tables: Tables, s: Settings, request: ChoiceRequest): boolean {
  if (servedByStart(tables, s, request)) return true;
  const moves = movesOf(tables, s, request);
  const proven = provenOf(s, moves);
  if (startServes(proven, startOf(s, request.orgId, moves))) return true; // a cautious start: open until it ends
  if (proven && s.revisit > 0) return true; // promoted: revisited requests stay open
  if (proven?.held && proven.lower <= proven.bar) return true; // held on a lead no longer credible: open for the proof down
  // Nothing proven: any open move; a cheaper model proven: a pricier one may still move the choice up.
  return moves.some((m) => (proven === undefined || (m.up && !proven.up)) && !provenMove(s, m) && openMove(s, m, request));
}

function judgeErrorOf(option: ChoiceLearnerOptions['judgeError']): (orgId: string) => number {
  if (typeof option === 'function') return option;
  const share = clampJudgeError(option ?? 0);
  return () => share;
}

function cautiousStartOf(option: ChoiceLearnerOptions['cautiousStart']): (orgId: string) => boolean {
  if (typeof option === 'function') return option;
  const on = option ?? false;
  return () => on;
}

/** A learner with no data: every choice is the incumbent until judged pairs or feedback say otherwise. */
export function createChoiceLearner(options: ChoiceLearnerOptions = {}): ChoiceLearner {
  const alpha = options.sequence?.alpha ?? 0.05;
  const settings: Settings = {
    bounds: boundsOf(options, alpha),
    upBounds: boundsOf(options, options.upAlpha ?? UP_ALPHA),
    judgeError: judgeErrorOf(options.judgeError),
    minSamples: options.minSamples ?? 20,
    explore: Math.min(0.05, Math.max(0, options.explore ?? 0)),
    revisit: Math.min(0.2, Math.max(0, options.revisit ?? 0)),
    holdUp: options.holdUp ?? true,
    cautiousStart: cautiousStartOf(options.cautiousStart),
    tracksStarts: (options.cautiousStart ?? false) !== false,
    random: options.random ?? Math.random,
  };
  let tables = tablesOf({ version: 1, pairs: [], feedback: [] });
  let updates = 0;
  return {
    recordJudgedPair(pair) {
      recordPair(tables, pair);
      updates++;
      // The new tally's bounds, kept: computed here (off the request path), not by the next route(); a move up's either way round.
      estimate(tables, settings.bounds, pair);
      settings.upBounds(tallyOf(tables, pair));
      settings.upBounds(tallyOf(tables, { ...pair, candidate: pair.incumbent, incumbent: pair.candidate }));
    },
    recordFeedback(feedback) {
      recordScore(tables, feedback);
      updates++;
    },
    winRate: (query) => estimate(tables, settings.bounds, query),
    judgedCounts: (query) => judgedCounts(tables, query),
    choose: (request) => (tables.known.has(key(request.orgId, request.taskKind)) || settings.explore > 0 ? choose(tables, settings, request) : { model: request.incumbent.id, reason: 'incumbent' }),
    unsure: (request) => unsure(tables, settings, request),
    knows: (orgId, taskKind) => tables.known.has(key(orgId, taskKind)),
    updates: () => updates,
    serialize: () => snapshotOf(tables),
    load(snapshot) {
      tables = tablesOf(snapshot);
    },
  };
}

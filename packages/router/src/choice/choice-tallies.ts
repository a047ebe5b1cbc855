import type { JudgedCounts } from './route-gate.js';
import type { TieTally } from './betting-bound.js';
import { type ChoiceSnapshot, type FeedbackRow, type PairRow, type UpRow, parseChoiceSnapshot } from './snapshot.js';
import type { Tally } from './win-estimate.js';

/** Which answer a judge preferred: the candidate's, the incumbent's (the current choice), or neither. */
export type Verdict = 'candidate' | 'incumbent' | 'tie';

/** One judged comparison of two answers to the same request (shadow judging, or any offline judge). */
export interface JudgedPair {
  orgId: string;
  /** The task kind the request belongs to (the router's task family, or your own clusters). */
  taskKind: string;
  /** The model that answered (the current choice). */
  incumbent: string;
  /** The model tried beside it. */
  candidate: string;
  verdict: Verdict;
}

/** A score in [0, 1] for one answer of `model` (user feedback: thumbs up 1, down 0). */
export interface FeedbackScore {
  orgId: string;
  taskKind: string;
  model: string;
  score: number;
}

/** One candidate against one incumbent for an organisation and task kind. */
export type Query = { orgId: string; taskKind: string; candidate: string; incumbent: string };

/** The learner's counts: judged pairs per (organisation, task kind, pair of models), feedback per model, the kinds it knows and the kinds held up. */
export interface Tables {
  pairs: Map<string, PairRow>;
  feedback: Map<string, FeedbackRow>;
  known: Set<string>;
  /** Kinds moved up from a cheaper incumbent and held there, by key(orgId, taskKind, incumbent, candidate). */
  up: Map<string, UpRow>;
  /** Kinds whose cautious start ended (the cheaper incumbent shown plausibly within the tolerance of the pricier candidate), keyed as `up`. */
  startEnded: Map<string, UpRow>;
}

export const key = (...parts: string[]) => JSON.stringify(parts);
const verdicts: readonly Verdict[] = ['candidate', 'incumbent', 'tie'];

function requireText(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string`);
  return value;
}

/** The tables of a snapshot (copied: the snapshot is not kept); throws `ChoiceSnapshotError` for one of another shape. */
export function tablesOf(value: unknown): Tables {
  const snapshot = parseChoiceSnapshot(value);
  const known = new Set<string>();
  const pairs = new Map<string, PairRow>();
  const feedback = new Map<string, FeedbackRow>();
  for (const row of snapshot.pairs) {
    pairs.set(key(row[0], row[1], row[2], row[3]), [...row] as PairRow);
    known.add(key(row[0], row[1]));
  }
  for (const row of snapshot.feedback) {
    feedback.set(key(row[0], row[1], row[2]), [...row] as FeedbackRow);
    known.add(key(row[0], row[1]));
  }
  const rowsOf = (rows: readonly UpRow[] | undefined) => new Map((rows ?? []).map((row) => [key(...row), [...row] as UpRow]));
  return { pairs, feedback, known, up: rowsOf(snapshot.up), startEnded: rowsOf(snapshot.startEnded) };
}

/** The tables as a snapshot (copied). */
export const snapshotOf = (tables: Tables): ChoiceSnapshot => ({
  version: 1,
  pairs: [...tables.pairs.values()].map((r) => [...r] as PairRow),
  feedback: [...tables.feedback.values()].map((r) => [...r] as FeedbackRow),
  up: [...tables.up.values()].map((r) => [...r] as UpRow),
  startEnded: [...tables.startEnded.values()].map((r) => [...r] as UpRow),
});

/** The pair row of the two models, stored once under their names in order, and which of them is the candidate. */
function pairRow(tables: Tables, { orgId, taskKind, candidate, incumbent }: Query): { row: PairRow | undefined; candidateFirst: boolean } {
  const [a, b] = candidate < incumbent ? [candidate, incumbent] : [incumbent, candidate];
  return { row: tables.pairs.get(key(orgId, taskKind, a, b)), candidateFirst: candidate === a };
}

/** The candidate's judged wins, losses and ties against the incumbent. */
function judgedTally(tables: Tables, query: Query): TieTally & { n: number } {
  const { row, candidateFirst } = pairRow(tables, query);
  if (!row) return { wins: 0, losses: 0, ties: 0, n: 0 };
  const [wins, losses] = candidateFirst ? [row[4], row[5]] : [row[5], row[4]];
  return { wins, losses, ties: row[6], n: wins + losses + row[6] };
}

/** The candidate's judged pairs against the incumbent (its wins; feedback not counted): what the gate reads. */
export function judgedCounts(tables: Tables, query: Query): JudgedCounts {
  const { wins, ties, n } = judgedTally(tables, query);
  return { samples: n, wins, ties };
}

/**
 * Feedback as comparisons: with both models scored, the candidate wins 0.5 + (mean_c - mean_i) / 2
 * of min(n_c, n_i) effective pairs (independent outcomes, ties half, as `winRate` reads P(success)).
 */
function feedbackTally(tables: Tables, { orgId, taskKind, candidate, incumbent }: Query): Tally & { n: number } {
  const c = tables.feedback.get(key(orgId, taskKind, candidate));
  const i = tables.feedback.get(key(orgId, taskKind, incumbent));
  if (!c || !i || c[4] === 0 || i[4] === 0) return { wins: 0, losses: 0, n: 0 };
  const n = Math.min(c[4], i[4]);
  const share = 0.5 + (c[3] / c[4] - i[3] / i[4]) / 2;
  return { wins: share * n, losses: (1 - share) * n, n };
}

/** The candidate's judged and fed-back outcomes against the incumbent, with how many of each. */
export type CountedTally = TieTally & { judged: number; feedback: number };

/** {@link CountedTally} of a query. */
export function tallyOf(tables: Tables, query: Query): CountedTally {
  const judged = judgedTally(tables, query);
  const fed = feedbackTally(tables, query);
  return { wins: judged.wins + fed.wins, losses: judged.losses + fed.losses, ties: judged.ties, judged: judged.n, feedback: fed.n };
}

/** Counts one judged pair (throws `TypeError` / `RangeError` for a malformed one). */
export function recordPair(tables: Tables, pair: JudgedPair): void {
  const orgId = requireText(pair.orgId, 'orgId');
  const taskKind = requireText(pair.taskKind, 'taskKind');
  const incumbent = requireText(pair.incumbent, 'incumbent');
  const candidate = requireText(pair.candidate, 'candidate');
  if (!verdicts.includes(pair.verdict)) throw new RangeError(`verdict must be one of ${verdicts.join(', ')}`);
  if (incumbent === candidate) throw new RangeError('incumbent and candidate must be different models');
  const [a, b] = candidate < incumbent ? [candidate, incumbent] : [incumbent, candidate];
  const k = key(orgId, taskKind, a, b);
  const row = tables.pairs.get(k) ?? [orgId, taskKind, a, b, 0, 0, 0];
  const winner = pair.verdict === 'tie' ? undefined : pair.verdict === 'candidate' ? candidate : incumbent;
  row[winner === undefined ? 6 : winner === a ? 4 : 5] += 1;
  tables.pairs.set(k, row);
  tables.known.add(key(orgId, taskKind));
}

/** Counts one feedback score (throws `TypeError` / `RangeError` for a malformed one). */
export function recordScore(tables: Tables, feedback: FeedbackScore): void {
  const orgId = requireText(feedback.orgId, 'orgId');
  const taskKind = requireText(feedback.taskKind, 'taskKind');
  const model = requireText(feedback.model, 'model');
  const { score } = feedback;
  if (typeof score !== 'number' || !(score >= 0 && score <= 1)) throw new RangeError('score must be a number in [0, 1]');
  const k = key(orgId, taskKind, model);
  const row = tables.feedback.get(k) ?? [orgId, taskKind, model, 0, 0];
  row[3] += score;
  row[4] += 1;
  tables.feedback.set(k, row);
  tables.known.add(key(orgId, taskKind));
}

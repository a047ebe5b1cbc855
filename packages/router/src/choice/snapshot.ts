/** One ordered comparison's counts: [orgId, taskKind, modelA, modelB, A's wins, B's wins, ties] with modelA < modelB. */
export type PairRow = [string, string, string, string, number, number, number];
/** One model's feedback: [orgId, taskKind, model, sum of scores, count]. */
export type FeedbackRow = [string, string, string, number, number];

/** A task kind moved up and held there until the cheaper model is proven within the tolerance: [orgId, taskKind, cheaper model (the incumbent), pricier model]. */
export type UpRow = [string, string, string, string];

/** The learner's state as plain JSON (shared through the router's weight store and merged across instances). */
export interface ChoiceSnapshot {
  version: 1;
  pairs: PairRow[];
  feedback: FeedbackRow[];
  /** Kinds held up (absent in snapshots from before 2026-12-05's hold: none). */
  up?: UpRow[];
  /** Kinds whose cautious start ended, rows as `up`'s: the cheaper model was shown plausibly within the tolerance of the pricier one (absent before 2026-12-06: none; only ever added). */
  startEnded?: UpRow[];
}

export class ChoiceSnapshotError extends Error {
  override name = 'ChoiceSnapshotError';
}

const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0;
const isText = (x: unknown): x is string => typeof x === 'string';

function validRow(row: unknown, texts: number, counts: number): boolean {
  if (!Array.isArray(row) || row.length !== texts + counts) return false;
  return row.every((cell, i) => (i < texts ? isText(cell) : isCount(cell)));
}

/** The snapshot when it has the learner's shape; throws `ChoiceSnapshotError` otherwise (another build's or a damaged one). */
export function parseChoiceSnapshot(value: unknown): ChoiceSnapshot {
  const v = value as Partial<ChoiceSnapshot> | null;
  if (!v || typeof v !== 'object' || v.version !== 1) throw new ChoiceSnapshotError('not a choice snapshot of version 1');
  if (!Array.isArray(v.pairs) || !v.pairs.every((r) => validRow(r, 4, 3))) throw new ChoiceSnapshotError('malformed pairs');
  if (!Array.isArray(v.feedback) || !v.feedback.every((r) => validRow(r, 3, 2))) throw new ChoiceSnapshotError('malformed feedback');
  if (v.up !== undefined && (!Array.isArray(v.up) || !v.up.every((r) => validRow(r, 4, 0)))) throw new ChoiceSnapshotError('malformed up');
  if (v.startEnded !== undefined && (!Array.isArray(v.startEnded) || !v.startEnded.every((r) => validRow(r, 4, 0)))) throw new ChoiceSnapshotError('malformed startEnded');
  return v as ChoiceSnapshot;
}

type Row = PairRow | FeedbackRow | UpRow;

function indexRows<R extends Row>(rows: readonly R[], texts: number): Map<string, R> {
  return new Map(rows.map((row) => [JSON.stringify(row.slice(0, texts)), row]));
}

/** `shared` plus, per row, what `mine` added since `base` (counts only grow, so the merge is exact). */
function mergeRows<R extends Row>(shared: readonly R[], base: readonly R[], mine: readonly R[], texts: number): R[] {
  const out = indexRows(shared.map((r) => [...r] as R), texts);
  const before = indexRows(base, texts);
  for (const row of mine) {
    const key = JSON.stringify(row.slice(0, texts));
    const old = before.get(key);
    const target = out.get(key) ?? ([...row.slice(0, texts), ...row.slice(texts).map(() => 0)] as R);
    for (let i = texts; i < row.length; i++) (target[i] as number) += Math.max(0, (row[i] as number) - ((old?.[i] as number | undefined) ?? 0));
    out.set(key, target);
  }
  return [...out.values()];
}

/** `shared`'s held kinds with what `mine` held or let go since `base` (a set merged three ways, as the counts are). */
function mergeUp(shared: readonly UpRow[], base: readonly UpRow[], mine: readonly UpRow[]): UpRow[] {
  const [before, now] = [indexRows(base, 4), indexRows(mine, 4)];
  const out = indexRows(shared.map((r) => [...r] as UpRow), 4);
  for (const key of before.keys()) if (!now.has(key)) out.delete(key);
  for (const [key, row] of now) if (!before.has(key)) out.set(key, [...row] as UpRow);
  return [...out.values()];
}

/**
 * The shared snapshot plus what this instance learned since it last synchronised (`base` -> `mine`).
 * A shared snapshot without `up` was written back by an instance from before the hold (rolling
 * upgrade): it knows no holds, so it stands for `base`'s, not for all of them let go.
 */
export function mergeChoiceSnapshots(shared: ChoiceSnapshot, base: ChoiceSnapshot, mine: ChoiceSnapshot): ChoiceSnapshot {
  return {
    version: 1,
    pairs: mergeRows(shared.pairs, base.pairs, mine.pairs, 4),
    feedback: mergeRows(shared.feedback, base.feedback, mine.feedback, 3),
    up: mergeUp(shared.up ?? base.up ?? [], base.up ?? [], mine.up ?? []),
    // Only ever added: the union (a shared snapshot written back by an older build lost its ends; the counts end them again).
    startEnded: [...indexRows([...(shared.startEnded ?? []), ...(mine.startEnded ?? [])].map((r) => [...r] as UpRow), 4).values()],
  };
}

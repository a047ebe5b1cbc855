/** One ordered comparison's counts: [orgId, taskKind, modelA, modelB, A's wins, B's wins, ties] with modelA < modelB. */
export type PairRow = [string, string, string, string, number, number, number];
/** One model's feedback: [orgId, taskKind, model, sum of scores, count]. */
export type FeedbackRow = [string, string, string, number, number];

/** The learner's state as plain JSON (shared through the router's weight store and merged across instances). */
export interface ChoiceSnapshot {
  version: 1;
  pairs: PairRow[];
  feedback: FeedbackRow[];
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
  return v as ChoiceSnapshot;
}

type Row = PairRow | FeedbackRow;

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

/** The shared snapshot plus what this instance learned since it last synchronised (`base` -> `mine`). */
export function mergeChoiceSnapshots(shared: ChoiceSnapshot, base: ChoiceSnapshot, mine: ChoiceSnapshot): ChoiceSnapshot {
  return {
    version: 1,
    pairs: mergeRows(shared.pairs, base.pairs, mine.pairs, 4),
    feedback: mergeRows(shared.feedback, base.feedback, mine.feedback, 3),
  };
}

/** One matched word piece: its place in the first text (`i`) and in the second (`j`). */
interface Place {
  i: number;
  j: number;
}

/** Pairs of places (in `i` order) whose `j` order is the other way round, with `j` read after a rotation at `cut`. */
function discordantAfterCut(js: readonly number[], cut: number, m: number): number {
  let discordant = 0;
  const at = js.map((j) => (j >= cut ? j - cut : j + m - cut));
  for (let p = 0; p < at.length; p++) for (let q = p + 1; q < at.length; q++) if (at[q]! < at[p]!) discordant++;
  return discordant;
}

/**
 * The share of matched content pairs still in the other order once the second text is read from
 * its best starting point (a rotation): a clause moved to the front or to the end ("X when Y" /
 * "when Y, X") leaves none, two words trading places ("from A to B" / "from B to A") leave them.
 */
export function rotatedDiscordance(content: readonly Place[], m: number): number {
  const pairs = (content.length * (content.length - 1)) / 2;
  if (pairs === 0) return 0;
  const js = content.map((l) => l.j);
  let best = discordantAfterCut(js, 0, m);
  for (const cut of js) if (best > 0) best = Math.min(best, discordantAfterCut(js, cut, m));
  return best / pairs;
}

/** Runs of matched content word pieces kept in order (in `i` order, `j` rising), less one, over the matches: 0 when nothing moved. */
export function orderBreaks(content: readonly Place[]): number {
  let breaks = 0;
  for (let k = 1; k < content.length; k++) if (content[k]!.j < content[k - 1]!.j) breaks++;
  return breaks / Math.max(1, content.length - 1);
}

function counts(ids: Int32Array, keep: ReadonlySet<number>): Map<number, number> {
  const out = new Map<number, number>();
  for (const id of ids) if (keep.has(id)) out.set(id, (out.get(id) ?? 0) + 1);
  return out;
}

/** Share of one kind of word piece (relation words, other function words) that only one of the two texts has (multiset difference). */
export function wordsDiffer(a: Int32Array, b: Int32Array, kind: ReadonlySet<number>): number {
  const [ca, cb] = [counts(a, kind), counts(b, kind)];
  let [differ, total] = [0, 0];
  for (const id of new Set([...ca.keys(), ...cb.keys()])) {
    const [x, y] = [ca.get(id) ?? 0, cb.get(id) ?? 0];
    [differ, total] = [differ + Math.abs(x - y), total + Math.max(x, y)];
  }
  return total === 0 ? 0 : differ / total;
}

/** The block features' names, in {@link blockFeatures}' order. */
export const BLOCK_FEATURE_NAMES = ['rotatedDiscordance', 'orderBreaks', 'relationsDiffer', 'functionDiffer'] as const;

/**
 * How the matched content words moved, as blocks (issue #27): a rewording moves whole clauses and
 * changes the function words around them (the passive's "is ... by"), a role swap moves single
 * words and keeps every function word.
 */
export function blockFeatures(content: readonly Place[], a: Int32Array, b: Int32Array, lex: { relations: ReadonlySet<number>; other: ReadonlySet<number> }): number[] {
  return [rotatedDiscordance(content, b.length), orderBreaks(content), wordsDiffer(a, b, lex.relations), wordsDiffer(a, b, lex.other)];
}

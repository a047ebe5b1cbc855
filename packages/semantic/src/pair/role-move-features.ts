/** One matched content word piece: its place in the first text (`i`) and in the second (`j`). */
interface Place {
  i: number;
  j: number;
}

/** Which of `places` (in `i` order) lie on one longest run of rising `j` (the words that kept their order). */
function keptInOrder(places: readonly Place[]): boolean[] {
  const [length, previous] = [places.map(() => 1), places.map(() => -1)];
  let end = -1;
  for (let k = 0; k < places.length; k++) {
    for (let p = 0; p < k; p++) {
      if (places[p]!.j < places[k]!.j && length[p]! + 1 > length[k]!) [length[k], previous[k]] = [length[p]! + 1, p];
    }
    if (end === -1 || length[k]! > length[end]!) end = k;
  }
  const kept = places.map(() => false);
  for (let k = end; k !== -1; k = previous[k]!) kept[k] = true;
  return kept;
}

/** Runs of moved places: neighbours in the first text's order that stay neighbours, in order, in the second. */
function movedRuns(places: readonly Place[], kept: readonly boolean[]): number {
  let runs = 0;
  for (let k = 0; k < places.length; k++) {
    if (kept[k]) continue;
    const continues = k > 0 && !kept[k - 1] && places[k]!.j > places[k - 1]!.j && places[k]!.j - places[k - 1]!.j <= 2;
    if (!continues) runs++;
  }
  return runs;
}

/** The move features' names, in {@link moveFeatures}' order. */
export const MOVE_FEATURE_NAMES = ['movedContent', 'movedRuns', 'movedRunLength', 'unmatchedContent', 'rearrangedOnly'] as const;

/**
 * What was replaced and what moved, counted (not shared, so one swap in a long sentence weighs as
 * much as in a short one; issue #27): the matched content words off the longest run that kept its
 * order (moved), in how many runs, of what mean length (two words trading places: two runs of one;
 * a clause moved: one long run), the content words only one text has (replaced: a synonym, a
 * rewording), and whether the texts differ only by moves (PAWS's swaps: every word kept).
 * `unmatched` is the number of content word pieces of both texts left unmatched.
 */
export function moveFeatures(content: readonly Place[], unmatched: number): number[] {
  const kept = keptInOrder(content);
  const moved = kept.filter((k) => !k).length;
  const runs = movedRuns(content, kept);
  return [Math.log1p(moved), Math.log1p(runs), moved / Math.max(1, runs), Math.log1p(unmatched), moved > 0 && unmatched === 0 ? 1 : 0];
}

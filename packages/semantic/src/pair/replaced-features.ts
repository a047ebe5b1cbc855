/**
 * The replaced-word reader (issue #27): what the word pieces only one text has are, read from
 * all-MiniLM-L6-v2's own word-piece embedding table (the input layer, pretrained: nothing of it
 * was fitted on PAWS), through the fixed projection (fixed-projection.ts). A synonym put in
 * ("employed" / "used") sits near the word it replaced; a content word replaced by an unrelated
 * one, or a function word added, reads otherwise.
 */
import type { RoleLexicon } from './role-features.js';

/** Row `id` of the word-piece embedding table (or its reduced form), unit length. */
export type WordTable = (id: number) => Float32Array;

/** The replaced-word features' names, in {@link replacedFeatures}' order. */
export const REPLACED_FEATURE_NAMES = ['replacedMinSimilarity', 'replacedMeanSimilarity', 'replacedUnrelated', 'replacedRelated', 'replacedFunction'] as const;

/** Each text's word pieces the other lacks (multisets: a piece twice in one text and once in the other counts once). */
function onlyIn(a: Int32Array, b: Int32Array): number[] {
  const left = new Map<number, number>();
  for (const id of b) left.set(id, (left.get(id) ?? 0) + 1);
  const out: number[] = [];
  for (const id of a) {
    const n = left.get(id) ?? 0;
    if (n > 0) left.set(id, n - 1);
    else out.push(id);
  }
  return out;
}

const dot = (x: Float32Array, y: Float32Array) => x.reduce((s, value, k) => s + value * y[k]!, 0);

/**
 * For the content word pieces only one text has: the lowest and the mean, over both sides, of each
 * one's best cosine (word-piece table) to the other side's own unmatched content pieces (1 when
 * nothing was replaced, 0 for a piece with nothing opposite); how many are unrelated (best < 0.3)
 * and how many related (>= 0.5), as log1p counts; and log1p of the function pieces only one side has.
 */
export function replacedFeatures(a: Int32Array, b: Int32Array, lex: RoleLexicon, table: WordTable, unrelatedBelow = 0.3): number[] {
  const isFunction = (id: number) => lex.relations.has(id) || lex.other.has(id);
  const [inA, inB] = [onlyIn(a, b), onlyIn(b, a)];
  const [contentA, contentB] = [inA.filter((id) => !isFunction(id)), inB.filter((id) => !isFunction(id))];
  const functionOnly = inA.length + inB.length - contentA.length - contentB.length;
  const bests: number[] = [];
  for (const [mine, theirs] of [
    [contentA, contentB],
    [contentB, contentA],
  ] as const) {
    for (const id of mine) bests.push(theirs.reduce((best, other) => Math.max(best, dot(table(id), table(other))), 0));
  }
  if (bests.length === 0) return [1, 1, 0, 0, Math.log1p(functionOnly)];
  const unrelated = bests.filter((s) => s < unrelatedBelow).length;
  const related = bests.filter((s) => s >= 0.5).length;
  return [Math.min(...bests), bests.reduce((s, x) => s + x, 0) / bests.length, Math.log1p(unrelated), Math.log1p(related), Math.log1p(functionOnly)];
}

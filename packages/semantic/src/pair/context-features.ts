/**
 * The contextual replaced-word reader (issue #27): the same comparisons as the replaced-word
 * reader (replaced-features.ts) and the matched words' context, read from all-MiniLM-L6-v2's own
 * last-block token states through the fixed projection (fixed-projection.ts; pretrained and
 * random: nothing of them was fitted on PAWS, unlike the pair model's 32 numbers). "third" moved
 * from "line" to "verse" keeps its id but not its context; "employed" put in for "used" has no
 * equal id but a close context.
 */
import type { RoleLexicon } from './role-features.js';
import type { TokenFeatures } from './token-features.js';

/** A text's word pieces with unit-length context rows (`ids.length x d`); `rows`: those read (special pieces left out). */
export interface ContextRows {
  ids: Int32Array;
  states: Float32Array;
  rows: number[];
  d: number;
}

/** The contextual features' names, in {@link contextFeatures}' order. */
export const CONTEXT_FEATURE_NAMES = ['rawContextMin', 'rawContextMean', 'rawReplacedMin', 'rawReplacedMean', 'rawReplacedUnrelated'] as const;

/** Columns `from..` of each word piece's features, each row of unit length (the stored fixed projection beside the pair model's numbers). */
export function contextRows(features: TokenFeatures, from: number): ContextRows {
  const { count, dimensions, values, ids } = features;
  const d = dimensions - from;
  const states = new Float32Array(count * d);
  for (let t = 0; t < count; t++) {
    let norm = 0;
    for (let k = 0; k < d; k++) norm += values[t * dimensions + from + k]! ** 2;
    const scale = 1 / Math.max(Math.sqrt(norm), 1e-12);
    for (let k = 0; k < d; k++) states[t * d + k] = values[t * dimensions + from + k]! * scale;
  }
  return { ids, states, rows: [...ids.keys()], d };
}

function cos(a: ContextRows, i: number, b: ContextRows, j: number): number {
  const d = a.d;
  let s = 0;
  for (let k = 0; k < d; k++) s += a.states[i * d + k]! * b.states[j * d + k]!;
  return s;
}

/** Equal content word pieces matched one to one, the most alike in context first; returns their cosines and each side's unmatched content rows. */
function match(a: ContextRows, b: ContextRows, isFunction: (id: number) => boolean): { linked: number[]; freeA: number[]; freeB: number[] } {
  const candidates: [number, number, number][] = [];
  for (const i of a.rows) for (const j of b.rows) if (a.ids[i] === b.ids[j] && !isFunction(a.ids[i]!)) candidates.push([i, j, cos(a, i, b, j)]);
  candidates.sort((x, y) => y[2] - x[2]);
  const [usedA, usedB, linked] = [new Set<number>(), new Set<number>(), [] as number[]];
  for (const [i, j, c] of candidates) {
    if (usedA.has(i) || usedB.has(j)) continue;
    [usedA.add(i), usedB.add(j), linked.push(c)];
  }
  const free = (t: ContextRows, used: Set<number>) => t.rows.filter((r) => !used.has(r) && !isFunction(t.ids[r]!));
  return { linked, freeA: free(a, usedA), freeB: free(b, usedB) };
}

/**
 * The lowest and mean context cosine of the matched content word pieces (1 with none), and for the
 * content pieces only one text has: the lowest and mean of each one's best cosine to the other
 * side's unmatched content pieces (1 with none; 0 for a piece with nothing opposite), and log1p of
 * how many sit under `unrelatedBelow`.
 */
export function contextFeatures(a: ContextRows, b: ContextRows, lex: RoleLexicon, unrelatedBelow = 0.5): number[] {
  const isFunction = (id: number) => lex.relations.has(id) || lex.other.has(id);
  const { linked, freeA, freeB } = match(a, b, isFunction);
  const bests = [...freeA.map((i) => freeB.reduce((m, j) => Math.max(m, cos(a, i, b, j)), 0)), ...freeB.map((j) => freeA.reduce((m, i) => Math.max(m, cos(a, i, b, j)), 0))];
  const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 1);
  const min = (xs: number[]) => (xs.length ? Math.min(...xs) : 1);
  return [min(linked), mean(linked), min(bests), mean(bests), Math.log1p(bests.filter((x) => x < unrelatedBelow).length)];
}

/**
 * The contextual replaced-word reader tried for issue #27 (CONTEXT_RAW=1 in role-train.ts): the
 * same comparisons as the replaced-word reader (role-replaced.ts) and the matched words' context,
 * read from all-MiniLM-L6-v2's own last-block token states (pretrained, 384 numbers a word piece:
 * nothing of them was fitted on PAWS, unlike the pair model's 32-number projection, so the
 * out-of-fold figures stay honest). "third" moved from "line" to "verse" keeps its id but not its
 * context; "employed" put in for "used" has no equal id but a close context.
 */
import type { RoleLexicon } from '@svc/semantic';
import type { TokenTable } from '../alignment/token-cache.js';

const SPECIAL = new Set([101, 102]);

/** The raw contextual features' names, in {@link rawContextFeatures}' order. */
export const RAW_CONTEXT_FEATURE_NAMES = ['rawContextMin', 'rawContextMean', 'rawReplacedMin', 'rawReplacedMean', 'rawReplacedUnrelated'] as const;

interface Text {
  ids: Int32Array;
  states: Float32Array;
  rows: number[];
  /** Numbers a state has (384 raw, fewer once projected). */
  d: number;
}

function text(table: TokenTable, value: string): Text {
  const at = table.index.get(value);
  if (at === undefined) throw new Error(`no token states for: ${value}`);
  const ids = table.ids[at]!;
  const states = table.states[at]!;
  return { ids, states, rows: [...ids.keys()].filter((r) => !SPECIAL.has(ids[r]!)), d: states.length / ids.length };
}

function cos(a: Text, i: number, b: Text, j: number): number {
  const d = a.d;
  let s = 0;
  for (let k = 0; k < d; k++) s += a.states[i * d + k]! * b.states[j * d + k]!;
  return s;
}

/** Equal content word pieces matched one to one, the most alike in context first; returns their cosines and each side's unmatched content rows. */
function match(a: Text, b: Text, isFunction: (id: number) => boolean): { linked: number[]; freeA: number[]; freeB: number[] } {
  const candidates: [number, number, number][] = [];
  for (const i of a.rows) for (const j of b.rows) if (a.ids[i] === b.ids[j] && !isFunction(a.ids[i]!)) candidates.push([i, j, cos(a, i, b, j)]);
  candidates.sort((x, y) => y[2] - x[2]);
  const [usedA, usedB, linked] = [new Set<number>(), new Set<number>(), [] as number[]];
  for (const [i, j, c] of candidates) {
    if (usedA.has(i) || usedB.has(j)) continue;
    [usedA.add(i), usedB.add(j), linked.push(c)];
  }
  const free = (t: Text, used: Set<number>) => t.rows.filter((r) => !used.has(r) && !isFunction(t.ids[r]!));
  return { linked, freeA: free(a, usedA), freeB: free(b, usedB) };
}

/**
 * The lowest and mean context cosine of the matched content word pieces (1 with none), and for the
 * content pieces only one text has: the lowest and mean of each one's best cosine to the other
 * side's unmatched content pieces (1 with none; 0 for a piece with nothing opposite), and log1p of
 * how many sit under `unrelatedBelow`.
 */
export function rawContextFeatures(table: TokenTable, stored: string, asked: string, lex: RoleLexicon, unrelatedBelow = 0.5): number[] {
  const isFunction = (id: number) => lex.relations.has(id) || lex.other.has(id);
  const [a, b] = [text(table, stored), text(table, asked)];
  const { linked, freeA, freeB } = match(a, b, isFunction);
  const bests = [...freeA.map((i) => freeB.reduce((m, j) => Math.max(m, cos(a, i, b, j)), 0)), ...freeB.map((j) => freeA.reduce((m, i) => Math.max(m, cos(a, i, b, j)), 0))];
  const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 1);
  const min = (xs: number[]) => (xs.length ? Math.min(...xs) : 1);
  return [min(linked), mean(linked), min(bests), mean(bests), Math.log1p(bests.filter((x) => x < unrelatedBelow).length)];
}

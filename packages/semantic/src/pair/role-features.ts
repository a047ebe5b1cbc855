import { normalised } from './grid-head.js';
import { BLOCK_FEATURE_NAMES, blockFeatures } from './role-block-features.js';
import { MOVE_FEATURE_NAMES, moveFeatures } from './role-move-features.js';
import type { TokenFeatures } from './token-features.js';

/**
 * Word pieces the role features treat as function words (their ids in the encoder's vocabulary):
 * `relations` are those that give the words around them a role (from, to, by, of, than...), `other`
 * the rest (articles, auxiliaries, punctuation). Everything else is a content word piece.
 */
export interface RoleLexicon {
  relations: ReadonlySet<number>;
  other: ReadonlySet<number>;
}

/** One word piece of one text matched to the same word piece of the other, with the cosine of their contextual features. */
interface Link {
  i: number;
  j: number;
  cos: number;
}

/** The names of {@link roleFeatures}' numbers, in order (the weights file lists them, so a change of order is caught). */
export const ROLE_FEATURE_NAMES = [
  'cosine',
  'overlap',
  'contentMatched',
  'contextMean',
  'contextMin',
  'discordance',
  'bigramsKept',
  'relationContextChanged',
  'contentNeighbourChanged',
  'unmatchedSubstitute',
  'lengthRatio',
  'lcs',
  'displacementMax',
  'displacementMean',
  'swapsAcrossRelation',
  'relationAfterChanged',
  'nextContentChanged',
  ...BLOCK_FEATURE_NAMES,
  ...MOVE_FEATURE_NAMES,
] as const;

/** Cosines of every word-piece pair of the two texts, `n x m`. */
function cosines(a: TokenFeatures, b: TokenFeatures): Float32Array {
  const [ua, ub, d] = [normalised(a), normalised(b), a.dimensions];
  const out = new Float32Array(a.count * b.count);
  for (let i = 0; i < a.count; i++) {
    for (let j = 0; j < b.count; j++) {
      let dot = 0;
      for (let k = 0; k < d; k++) dot += ua[i * d + k]! * ub[j * d + k]!;
      out[i * b.count + j] = dot;
    }
  }
  return out;
}

/** Matches equal word pieces one to one, the most alike in context first (symmetric in the two texts). */
function align(a: TokenFeatures, b: TokenFeatures, cos: Float32Array): Link[] {
  const candidates: Link[] = [];
  for (let i = 0; i < a.count; i++) for (let j = 0; j < b.count; j++) if (a.ids[i] === b.ids[j]) candidates.push({ i, j, cos: cos[i * b.count + j]! });
  candidates.sort((x, y) => y.cos - x.cos || x.i - y.i || x.j - y.j);
  const [usedA, usedB] = [new Set<number>(), new Set<number>()];
  const links: Link[] = [];
  for (const link of candidates) {
    if (usedA.has(link.i) || usedB.has(link.j)) continue;
    usedA.add(link.i);
    usedB.add(link.j);
    links.push(link);
  }
  return links.sort((x, y) => x.i - y.i);
}

const isFunction = (lex: RoleLexicon, id: number) => lex.relations.has(id) || lex.other.has(id);

/** The nearest content word piece before (`step` -1) or after (+1) `at`, or -1. */
function nearestContent(ids: Int32Array, at: number, lex: RoleLexicon, step: 1 | -1): number {
  for (let k = at + step; k >= 0 && k < ids.length; k += step) if (!isFunction(lex, ids[k]!)) return ids[k]!;
  return -1;
}

/** The relation word piece within two places before (`step` -1) or after (+1) `at` (nothing but function words between), or -1. */
function relationNear(ids: Int32Array, at: number, lex: RoleLexicon, step: 1 | -1): number {
  for (let k = at + step, n = 0; n < 2 && k >= 0 && k < ids.length; k += step, n++) {
    if (lex.relations.has(ids[k]!)) return ids[k]!;
    if (!lex.other.has(ids[k]!)) return -1;
  }
  return -1;
}

/** Pairs of links in the other order in the second text; those with a relation word between them in the first. */
function discordantPairs(links: readonly Link[], a: TokenFeatures, lex: RoleLexicon): { discordant: number; pairs: number; acrossRelation: number } {
  let [discordant, pairs, acrossRelation] = [0, 0, 0];
  for (let p = 0; p < links.length; p++) {
    for (let q = p + 1; q < links.length; q++) {
      pairs++;
      if (links[q]!.j > links[p]!.j) continue;
      discordant++;
      for (let k = links[p]!.i + 1; k < links[q]!.i; k++) {
        if (lex.relations.has(a.ids[k]!)) {
          acrossRelation++;
          break;
        }
      }
    }
  }
  return { discordant, pairs, acrossRelation };
}

/** Longest common subsequence of the two id sequences. */
function lcsLength(a: Int32Array, b: Int32Array): number {
  let row = new Uint16Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const next = new Uint16Array(b.length + 1);
    for (let j = 1; j <= b.length; j++) next[j] = a[i - 1] === b[j - 1] ? row[j - 1]! + 1 : Math.max(row[j]!, next[j - 1]!);
    row = next;
  }
  return row[b.length]!;
}

/**
 * Shares of matched content word pieces whose neighbourhood on one side (`step` -1: before, +1:
 * after) differs in the other text: the relation word there, the nearest content word there.
 */
function neighbourhoodChanges(links: readonly Link[], a: TokenFeatures, b: TokenFeatures, lex: RoleLexicon, step: 1 | -1): [number, number] {
  let [relationChanged, relationSeen, contentChanged] = [0, 0, 0];
  for (const { i, j } of links) {
    const [ra, rb] = [relationNear(a.ids, i, lex, step), relationNear(b.ids, j, lex, step)];
    if (ra !== -1 || rb !== -1) {
      relationSeen++;
      if (ra !== rb) relationChanged++;
    }
    if (nearestContent(a.ids, i, lex, step) !== nearestContent(b.ids, j, lex, step)) contentChanged++;
  }
  return [relationChanged / Math.max(1, relationSeen), contentChanged / Math.max(1, links.length)];
}

/** Share of adjacent word-piece pairs of the first text kept adjacent, in order, in the second. */
function bigramsKept(links: readonly Link[], n: number): number {
  const to = new Int32Array(n).fill(-1);
  for (const { i, j } of links) to[i] = j;
  let kept = 0;
  for (let i = 0; i + 1 < n; i++) if (to[i] !== -1 && to[i + 1] === to[i]! + 1) kept++;
  return kept / Math.max(1, n - 1);
}

/** Mean over the unmatched word pieces of both texts of their best cosine to any word piece of the other. */
function unmatchedSubstitute(links: readonly Link[], cos: Float32Array, n: number, m: number): number {
  const [inA, inB] = [new Set(links.map((l) => l.i)), new Set(links.map((l) => l.j))];
  let [sum, count] = [0, 0];
  for (let i = 0; i < n; i++) {
    if (inA.has(i)) continue;
    let best = -1;
    for (let j = 0; j < m; j++) best = Math.max(best, cos[i * m + j]!);
    [sum, count] = [sum + best, count + 1];
  }
  for (let j = 0; j < m; j++) {
    if (inB.has(j)) continue;
    let best = -1;
    for (let i = 0; i < n; i++) best = Math.max(best, cos[i * m + j]!);
    [sum, count] = [sum + best, count + 1];
  }
  return count === 0 ? 1 : sum / count;
}

function contentCount(f: TokenFeatures, lex: RoleLexicon): number {
  let count = 0;
  for (const id of f.ids) if (!isFunction(lex, id)) count++;
  return count;
}

/** Statistics of the matched content word pieces: how alike in context, how far moved. */
function linkStatistics(content: readonly Link[], n: number, m: number): { mean: number; min: number; moveMax: number; moveMean: number } {
  let [sum, min, moveMax, moveSum] = [0, 1, 0, 0];
  for (const { i, j, cos } of content) {
    const move = Math.abs(i / Math.max(1, n - 1) - j / Math.max(1, m - 1));
    [sum, min, moveMax, moveSum] = [sum + cos, Math.min(min, cos), Math.max(moveMax, move), moveSum + move];
  }
  const k = Math.max(1, content.length);
  return { mean: content.length ? sum / k : 0, min: content.length ? min : 0, moveMax, moveMean: moveSum / k };
}

/**
 * What a pair model needs to read who did what to whom, beyond the words present: the equal word
 * pieces of the two texts matched one to one (most alike in context first), then how alike in
 * context the matched content words are (a word moved into another role reads differently), how
 * many pairs of them changed order (and how many of those across a relation word: "from A to B" /
 * "from B to A"), whether their neighbours and the relation words before and after them are the same, and
 * how well the unmatched word pieces are substituted. Symmetric up to the order-dependent shares.
 * Names: {@link ROLE_FEATURE_NAMES}.
 */
/** The move features of a model that does not read them: zeros in their places. */
const noMoves: readonly number[] = MOVE_FEATURE_NAMES.map(() => 0);

export function roleFeatures(a: TokenFeatures, b: TokenFeatures, cosine: number, overlap: number, lex: RoleLexicon, moves = true): number[] {
  const [n, m] = [a.count, b.count];
  const cos = cosines(a, b);
  const links = align(a, b, cos);
  const content = links.filter((l) => !isFunction(lex, a.ids[l.i]!));
  const stats = linkStatistics(content, n, m);
  const order = discordantPairs(content, a, lex);
  const [relationChanged, contentChanged] = neighbourhoodChanges(content, a, b, lex, -1);
  const [relationAfterChanged, nextContentChanged] = neighbourhoodChanges(content, a, b, lex, 1);
  const bToA = links.map((l) => ({ i: l.j, j: l.i, cos: l.cos })).sort((x, y) => x.i - y.i);
  const unmatched = contentCount(a, lex) + contentCount(b, lex) - 2 * content.length;
  return [
    cosine,
    overlap,
    content.length / Math.max(1, contentCount(a, lex), contentCount(b, lex)),
    stats.mean,
    stats.min,
    order.discordant / Math.max(1, order.pairs),
    (bigramsKept(links, n) + bigramsKept(bToA, m)) / 2,
    relationChanged,
    contentChanged,
    unmatchedSubstitute(links, cos, n, m),
    Math.min(n, m) / Math.max(1, n, m),
    lcsLength(a.ids, b.ids) / Math.max(1, n, m),
    stats.moveMax,
    stats.moveMean,
    Math.log1p(order.acrossRelation),
    relationAfterChanged,
    nextContentChanged,
    ...blockFeatures(content, a.ids, b.ids, lex),
    ...(moves ? moveFeatures(content, unmatched) : noMoves),
  ];
}

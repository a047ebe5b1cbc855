/**
 * What the relation pair reader reads of a pair (A stored, B newer): "does B replace A?", from the
 * shared encoder's sentence vectors only, in a few topic-free numbers. The ninth pass's reader
 * read the two vectors' elementwise products (772 inputs) and learned which topics were paired in
 * training; these are cosines between views of the two statements, so a head fitted on them can
 * only learn how the views relate, not what they are about (docs/memory.md, eighteenth pass).
 *
 * The views: each statement (`statementCore`), its frame (the statement with its value removed),
 * its value, and each statement with the other's value put in its value's place ("I use Windows as
 * my operating system" with FreeBSD: "I use FreeBSD as my operating system"), which is close to B
 * when B gives a new value of what A states, and no closer than before when A is about another thing.
 */
import { statementCore, subjectFrame, valuePhrase } from '@svc/memory';

export interface PairEmbedder {
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export const RELATION_FEATURES = ['cosStatement', 'cosFrame', 'cosValue', 'swapAtoB', 'swapBtoA', 'swapGainA', 'swapGainB', 'frameAtoB', 'frameBtoA', 'valueInFrame', 'bothValued'] as const;

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

/** The statement with its value replaced by another value, or the statement as it is when either has none. */
function swapped(statement: string, value: string | undefined, other: string | undefined): string {
  return value !== undefined && other !== undefined && statement.includes(value) ? statement.replace(value, other) : statement;
}

/** The features of each pair, in the order of `RELATION_FEATURES`: one embedding call for every view of every pair. */
export async function relationFeatures(embedder: PairEmbedder, pairs: readonly (readonly [string, string])[]): Promise<number[][]> {
  const texts: string[] = [];
  const at = (text: string) => texts.push(text) - 1;
  const plans = pairs.map(([a, b]) => {
    const [va, vb] = [valuePhrase(a), valuePhrase(b)];
    return {
      both: va !== undefined && vb !== undefined ? 1 : 0,
      ids: [statementCore(a), statementCore(b), subjectFrame(a), subjectFrame(b), va ?? a, vb ?? b, statementCore(swapped(a, va, vb)), statementCore(swapped(b, vb, va))].map(at),
    };
  });
  const vectors = await embedder.embed(texts);
  return plans.map(({ both, ids }) => {
    const [sa, sb, fa, fb, va, vb, aSwap, bSwap] = ids.map((i) => vectors[i]!) as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
    const cosStatement = dot(sa, sb);
    const [swapAtoB, swapBtoA] = [dot(aSwap, sb), dot(bSwap, sa)];
    return [cosStatement, dot(fa, fb), dot(va, vb), swapAtoB, swapBtoA, swapAtoB - cosStatement, swapBtoA - cosStatement, dot(fa, sb), dot(fb, sa), dot(vb, fa), both];
  });
}

/** A fitted head over `RELATION_FEATURES`: standardised inputs, one hidden layer (or none), a logistic output. */
export interface RelationHead {
  id: string;
  mean: number[];
  scale: number[];
  /** Hidden layer: rows of weights per unit, then biases (empty for a plain logistic head). */
  hidden: number[][];
  hiddenBias: number[];
  w: number[];
  b: number;
}

/** The head's probability that B replaces A. */
export function relationScore(head: RelationHead, features: readonly number[]): number {
  const z = features.map((x, i) => (x - head.mean[i]!) / head.scale[i]!);
  const h = head.hidden.length === 0 ? z : head.hidden.map((row, j) => Math.max(0, row.reduce((s, w, i) => s + w * z[i]!, head.hiddenBias[j]!)));
  const logit = h.reduce((s, x, i) => s + x * head.w[i]!, head.b);
  return 1 / (1 + Math.exp(-logit));
}

import { patternKind, VALUE_KINDS, type ValueKinds, type ValueKindThresholds } from '@svc/memory';
import type { WordTable } from './word-table.js';

/**
 * Rule 7's value typing with word vectors instead of the shared encoder (issue #35, twentieth
 * pass; evaluations only): a value phrase's vector is the mean of its words' GloVe vectors
 * (articles and a few function words dropped, "'s" taken off, a hyphenated word looked up whole
 * then by its parts); its kind is the `VALUE_KINDS` set whose three nearest examples are closest
 * on average, at least `floor` close and `margin` ahead of the next set, as `value-kinds.ts` does
 * with MiniLM. Days, numbers and the gazetteer's names are read first, as shipped.
 */
const STOP = new Set(['a', 'an', 'the', 'my', 'our', 'your', 'his', 'her', 'their', 'of', 'to', 'and', 'in', 'on', 'at', 'with', 'for', 'some']);

/** A value's words, lower-cased, without articles and function words. */
export function phraseWords(value: string): string[] {
  const tokens = value.toLowerCase().match(/[\p{L}\d][\p{L}\d'’&+-]*/gu) ?? [];
  return tokens.map((t) => t.replace(/['’]s$/, '')).filter((t) => !STOP.has(t));
}

/** The unit mean of the words' vectors the table has (a hyphenated word whole, else its parts); undefined when it has none. */
export function phraseVector(table: WordTable, value: string): Float32Array | undefined {
  const found = phraseWords(value).flatMap((w) => {
    const whole = table.vector(w);
    if (whole) return [whole];
    return w.split(/[-']/).flatMap((part) => table.vector(part) ?? []);
  });
  if (found.length === 0) return undefined;
  const mean = new Float32Array(table.dimensions);
  for (const v of found) for (let d = 0; d < mean.length; d++) mean[d]! += v[d]!;
  const norm = Math.hypot(...mean) || 1;
  return mean.map((x) => x / norm);
}

export const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

/** Each kind's closeness to a vector: the mean cosine of its three nearest examples, best first. */
export function kindScores(vector: Float32Array, examples: readonly { kind: string; vector: Float32Array }[]): { kind: string; score: number }[] {
  const byKind = new Map<string, number[]>();
  for (const e of examples) byKind.set(e.kind, [...(byKind.get(e.kind) ?? []), dot(vector, e.vector)]);
  return [...byKind.entries()]
    .map(([kind, cosines]) => {
      const nearest = cosines.sort((a, b) => b - a).slice(0, 3);
      return { kind, score: nearest.reduce((s, c) => s + c, 0) / nearest.length };
    })
    .sort((a, b) => b.score - a.score);
}

/** The examples' vectors (an example the table lacks every word of is left out). */
export function exampleVectors(table: WordTable): { kind: string; vector: Float32Array }[] {
  return Object.entries(VALUE_KINDS).flatMap(([kind, list]) => list.flatMap((e) => {
    const vector = phraseVector(table, e);
    return vector ? [{ kind, vector }] : [];
  }));
}

/** The kind a vector is closest to, if close and clear. */
export function wordVectorKind(vector: Float32Array, examples: readonly { kind: string; vector: Float32Array }[], thresholds: ValueKindThresholds): string | undefined {
  const [first, second] = kindScores(vector, examples);
  if (!first || first.score < thresholds.floor) return undefined;
  return second === undefined || first.score - second.score >= thresholds.margin ? first.kind : undefined;
}

/** A typer over a word table: patterns and the gazetteer first, then the word vectors. */
export function createWordVectorKinds(table: WordTable, thresholds: ValueKindThresholds): ValueKinds {
  const examples = exampleVectors(table);
  return {
    kindsOf: async (values) =>
      values.map((v) => {
        const read = patternKind(v);
        if (read !== undefined) return read;
        const vector = phraseVector(table, v);
        return vector ? wordVectorKind(vector, examples, thresholds) : undefined;
      }),
  };
}

/** The first typer's kinds, the second's where the first names none. */
export function eitherKinds(first: ValueKinds, second: ValueKinds): ValueKinds {
  return {
    async kindsOf(values) {
      const read = await first.kindsOf(values);
      const open = values.filter((_, i) => read[i] === undefined);
      if (open.length === 0) return read;
      const more = await second.kindsOf(open);
      let next = 0;
      return read.map((kind) => kind ?? more[next++]);
    },
  };
}

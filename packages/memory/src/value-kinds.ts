import type { Embedder } from '@svc/semantic';
import { lexiconKind } from './value-lexicon.js';

/**
 * Kinds of value a statement can give, each named by a set of example values (a general lexicon,
 * written for this without reading the held-out attributes; counted afterwards, 20 of the 130
 * examples are also values of the tuning or dev attributes, "purple", "Netflix", and 6 of held-out
 * ones). A value's kind is the set whose nearest examples the shared encoder places it closest
 * to, clear of the next set; numbers and days are read by pattern. Two statements that give
 * values of one kind about one thing give two values of one attribute: the newer replaces the
 * older (`typed-links.ts`). A name the gazetteer knows (`value-lexicon.ts`) takes its kind from there
 * first: the encoder types bare proper nouns poorly.
 */
export const VALUE_KINDS: Readonly<Record<string, readonly string[]>> = {
  colour: ['green', 'purple', 'pink', 'yellow', 'white', 'silver', 'turquoise', 'beige', 'navy', 'auburn', 'ginger'],
  place: ['Paris', 'Tokyo', 'Madrid', 'Chicago', 'Sydney', 'Toronto', 'Munich', 'Prague', 'Nairobi', 'Iceland', 'Sicily', 'Bali', 'Tuscany', 'Mexico', 'the mountains', 'the coast'],
  person: ['Anna', 'James', 'Maria', 'David', 'Sofia', 'Michael', 'Aisha', 'Kenji', 'Olga', 'Pedro', 'Fatima', 'Liam'],
  occupation: ['lawyer', 'plumber', 'engineer', 'pharmacist', 'architect', 'chef', 'dentist', 'journalist', 'firefighter', 'cashier', 'software developer'],
  diet: ['pescatarian', 'keto', 'gluten-free', 'paleo', 'halal', 'kosher', 'low-carb', 'dairy-free', 'meat eater'],
  sport: ['football', 'basketball', 'golf', 'volleyball', 'hockey', 'swimming', 'cycling', 'boxing', 'climbing', 'baseball', 'judo'],
  pastime: ['knitting', 'gardening', 'painting', 'stretching', 'a podcast', 'a cup of tea', 'a crossword', 'prayer', 'a shower', 'listening to music', 'writing in a diary'],
  company: ['Google', 'Amazon', 'Netflix', 'Spotify', 'Vodafone', 'Verizon', 'Santander', 'Microsoft', 'Nokia', 'Lufthansa', 'Paypal', 'Deutsche Bank', 'Sky'],
  product: ['iPhone 15', 'Galaxy S23', 'Honda Civic', 'Kindle', 'Pixel 8', 'Toyota Corolla', 'iPad', 'Chromebook', 'Vespa'],
  language: ['Spanish', 'German', 'Mandarin', 'Portuguese', 'Korean', 'Italian', 'Hindi', 'Russian', 'Swahili', 'Turkish'],
  food: ['pizza', 'sushi', 'pasta', 'chocolate', 'curry', 'tacos', 'salad', 'ramen', 'porridge'],
  animal: ['a dog', 'a cat', 'a parrot', 'a hamster', 'a rabbit', 'a horse', 'a goldfish', 'a turtle'],
};

/** How close a value must be to its kind's nearest example, and how far ahead of the next kind. */
export interface ValueKindThresholds {
  floor: number;
  margin: number;
}

/** Per embedder, chosen on the tuning attributes' values (docs/memory.md, tenth pass); an embedder without one types nothing. */
const CALIBRATED: Readonly<Record<string, ValueKindThresholds>> = {
  'all-MiniLM-L6-v2': { floor: 0.38, margin: 0.03 },
};

/** The calibrated thresholds of an embedder, if it has some. */
export function valueKindThresholds(embedderId: string): ValueKindThresholds | undefined {
  return CALIBRATED[embedderId];
}

/** A kind's closeness is the mean cosine of its three nearest examples (one stray example does not decide). */
const NEAREST = 3;

const NUMBER = /^\d/;
const DAY = /\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\b/i;

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

/** The kinds of values, from the shared encoder's vectors of each kind's examples (embedded once). */
export interface ValueKinds {
  /** The kind of each value (undefined where none is close and clear), in one embedding call. */
  kindsOf(values: readonly string[]): Promise<(string | undefined)[]>;
}

/** A value's kind read without vectors: a day or a number by pattern, else the gazetteer's kind (`value-lexicon.ts`), else undefined. */
export const patternKind = (value: string): string | undefined => (DAY.test(value) ? 'day' : NUMBER.test(value) ? 'number' : lexiconKind(value));

const NONE: ValueKinds = { kindsOf: async (values) => values.map(() => undefined) };

/** The kind of a vector among the examples': the kind whose nearest examples are closest, if close and clear. */
function kindOf(vector: Float32Array, known: readonly { kind: string; vector: Float32Array }[], thresholds: ValueKindThresholds): string | undefined {
  const byKind = new Map<string, number[]>();
  for (const e of known) byKind.set(e.kind, [...(byKind.get(e.kind) ?? []), dot(vector, e.vector)]);
  const closeness = [...byKind.entries()].map(([kind, cosines]) => {
    const nearest = cosines.sort((a, b) => b - a).slice(0, NEAREST);
    return { kind, score: nearest.reduce((s, c) => s + c, 0) / nearest.length };
  });
  const [first, second] = closeness.sort((a, b) => b.score - a.score);
  if (!first || first.score < thresholds.floor) return undefined;
  return second === undefined || first.score - second.score >= thresholds.margin ? first.kind : undefined;
}

/** A typer over `embedder` (nothing is typed without thresholds); the examples are embedded at its first use. */
export function createValueKinds(embedder: Embedder, thresholds: ValueKindThresholds | undefined = valueKindThresholds(embedder.id)): ValueKinds {
  if (thresholds === undefined) return NONE;
  const names = Object.keys(VALUE_KINDS);
  let examples: Promise<{ kind: string; vector: Float32Array }[]> | undefined;
  const load = () => {
    examples ??= embedder.embed(names.flatMap((kind) => VALUE_KINDS[kind]!)).then((vectors) => {
      const kinds = names.flatMap((kind) => VALUE_KINDS[kind]!.map(() => kind));
      return vectors.map((vector, i) => ({ kind: kinds[i]!, vector }));
    });
    return examples;
  };
  return {
    async kindsOf(values) {
      const read = values.map(patternKind);
      const open = values.filter((_, i) => read[i] === undefined);
      if (open.length === 0) return read;
      const [known, vectors] = await Promise.all([load(), embedder.embed(open)]);
      let next = 0;
      return read.map((kind) => kind ?? kindOf(vectors[next++]!, known, thresholds));
    },
  };
}

import type { Embedder } from '@svc/semantic';
import { ATTRIBUTE_PROTOTYPES, type AttributePrototype } from './attribute-prototypes.js';

/** How close a vector must be to an attribute's nearest prototype, and how clear of the next attribute. */
export interface AttributeThresholds {
  /** A statement this close gets the attribute's slot. */
  statement: number;
  /** A statement this close is near enough to the attribute to meet a fact that has it (a correction). */
  near: number;
  question: number;
  /** The best attribute must beat the second by this much. */
  margin: number;
}

/**
 * Calibrated per embedder by `pnpm --filter @svc/evals memory:updates` on the dev attributes; an
 * embedder without a calibration (the hashed one) classifies nothing and memory keeps to its patterns.
 */
const CALIBRATED: Readonly<Record<string, AttributeThresholds>> = {
  'all-MiniLM-L6-v2': { statement: 0.6, near: 0.45, question: 0.6, margin: 0.05 },
};

/** The calibrated thresholds of an embedder, if it has some. */
export function attributeThresholds(embedderId: string): AttributeThresholds | undefined {
  return CALIBRATED[embedderId];
}

/** Which attribute (a slot) a statement gives or a question asks for, from the vectors the store has anyway. */
export interface AttributeClassifier {
  /** The slot of the attribute a statement's vector is about, if one is close and clear. */
  slotOf(vector: Float32Array): Promise<string | undefined>;
  /** The slot of the attribute a statement's vector is nearest, if clear of the others and at least `near` close. */
  nearestTo(vector: Float32Array): Promise<string | undefined>;
  /** The slot a question's vector asks for, if one is close and clear. */
  askedBy(vector: Float32Array): Promise<string | undefined>;
  /** Cosine of a question's vector to the nearest example question of any attribute (0 without a calibration). */
  closeness(vector: Float32Array): Promise<number>;
}

const NONE: AttributeClassifier = { slotOf: async () => undefined, nearestTo: async () => undefined, askedBy: async () => undefined, closeness: async () => 0 };

interface Embedded {
  slot: string;
  statements: Float32Array[];
  questions: Float32Array[];
}

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

/** The best slot whose nearest example is at least `floor` close and `margin` closer than any other slot's. */
function nearest(vector: Float32Array, attributes: readonly Embedded[], pick: (a: Embedded) => Float32Array[], floor: number, margin: number): string | undefined {
  let best = -2;
  let second = -2;
  let slot: string | undefined;
  for (const attribute of attributes) {
    let score = -2;
    for (const example of pick(attribute)) score = Math.max(score, dot(vector, example));
    if (score > best) {
      second = best;
      best = score;
      slot = attribute.slot;
    } else if (score > second) second = score;
  }
  return best >= floor && best - second >= margin ? slot : undefined;
}

/**
 * A classifier over `prototypes` (default {@link ATTRIBUTE_PROTOTYPES}) for `embedder`: the
 * examples are embedded once, on first use (about 100 short sentences); each call is then a few
 * thousand multiply-adds over a vector the store computed anyway. `thresholds` default to the
 * embedder's calibration; without one it classifies nothing.
 */
export function createAttributeClassifier(embedder: Embedder, options: { prototypes?: readonly AttributePrototype[]; thresholds?: AttributeThresholds } = {}): AttributeClassifier {
  const thresholds = options.thresholds ?? attributeThresholds(embedder.id);
  if (!thresholds) return NONE;
  const prototypes = options.prototypes ?? ATTRIBUTE_PROTOTYPES;
  let embedded: Promise<Embedded[]> | undefined;
  const load = () => {
    embedded ??= (async () => {
      const texts = prototypes.flatMap((p) => [...p.statements, ...p.questions]);
      const vectors = await embedder.embed(texts);
      let at = 0;
      const take = (n: number) => {
        at += n;
        return vectors.slice(at - n, at);
      };
      return prototypes.map((p) => ({ slot: p.slot, statements: take(p.statements.length), questions: take(p.questions.length) }));
    })();
    embedded.catch(() => {
      embedded = undefined;
    });
    return embedded;
  };
  return {
    slotOf: async (vector) => nearest(vector, await load(), (a) => a.statements, thresholds.statement, thresholds.margin),
    nearestTo: async (vector) => nearest(vector, await load(), (a) => a.statements, thresholds.near, thresholds.margin),
    askedBy: async (vector) => nearest(vector, await load(), (a) => a.questions, thresholds.question, thresholds.margin),
    closeness: async (vector) => Math.max(0, ...(await load()).flatMap((a) => a.questions.map((q) => dot(vector, q)))),
  };
}

import type { Embedder } from '@svc/semantic';
import { ATTRIBUTE_PROTOTYPES, type AttributePrototype } from './attribute-prototypes.js';

/** How close a vector must be to an attribute's nearest prototype, and how clear of the next attribute. */
export interface AttributeThresholds {
  statement: number;
  question: number;
  /** The best attribute must beat the second by this much. */
  margin: number;
}

/**
 * Calibrated per embedder by `pnpm --filter @svc/evals memory:updates` on the dev attributes; an
 * embedder without a calibration (the hashed one) classifies nothing and memory keeps to its patterns.
 */
const CALIBRATED: Readonly<Record<string, AttributeThresholds>> = {
  'all-MiniLM-L6-v2': { statement: 0.6, question: 0.55, margin: 0.08 },
};

/** Which attribute (a slot) a statement gives or a question asks for, from the vectors the store has anyway. */
export interface AttributeClassifier {
  /** The slot of the attribute a statement's vector is about, if one is close and clear. */
  slotOf(vector: Float32Array): Promise<string | undefined>;
  /** The slot a question's vector asks for, if one is close and clear. */
  askedBy(vector: Float32Array): Promise<string | undefined>;
}

const NONE: AttributeClassifier = { slotOf: async () => undefined, askedBy: async () => undefined };

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
  let best: { slot: string; score: number } | undefined;
  let second = -1;
  for (const attribute of attributes) {
    const score = Math.max(...pick(attribute).map((example) => dot(vector, example)));
    if (!best || score > best.score) {
      if (best) second = Math.max(second, best.score);
      best = { slot: attribute.slot, score };
    } else second = Math.max(second, score);
  }
  return best && best.score >= floor && best.score - second >= margin ? best.slot : undefined;
}

/**
 * A classifier over `prototypes` (default {@link ATTRIBUTE_PROTOTYPES}) for `embedder`: the
 * examples are embedded once, on first use (about 100 short sentences); each call is then a few
 * thousand multiply-adds over a vector the store computed anyway. `thresholds` default to the
 * embedder's calibration; without one it classifies nothing.
 */
export function createAttributeClassifier(embedder: Embedder, options: { prototypes?: readonly AttributePrototype[]; thresholds?: AttributeThresholds } = {}): AttributeClassifier {
  const thresholds = options.thresholds ?? CALIBRATED[embedder.id];
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
    askedBy: async (vector) => nearest(vector, await load(), (a) => a.questions, thresholds.question, thresholds.margin),
  };
}

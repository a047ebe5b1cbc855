import { semanticKeyOf } from '@svc/semantic';
import { chatRequest } from '@svc/semantic/test';
import type { QqpPair } from '../dataset.js';
import { onePerSource, splitBySource } from '../paws.js';
import { splitByQuestion } from '../split.js';

/** Exactly the text the cache embeds and stores (the final user message, spacing collapsed). */
export const asked = (question: string): string => semanticKeyOf(chatRequest(question))?.text ?? question;

const pairKey = (x: string, y: string): string => (x < y ? `${x}\u0000${y}` : `${y}\u0000${x}`);

/** The pairs a run asks and what judges its hits. */
export interface LiveSet {
  pairs: QqpPair[];
  /**
   * Whether the two questions, as the cache sees them, are the same text (QQP repeats questions
   * across pairs, and no pair labels a question a duplicate of itself) or are labelled duplicates
   * by any pair of qqp-dev.
   */
  duplicateOf(x: string, y: string): boolean;
}

/** The first `count` pairs of the held-out half of qqp-dev (`splitByQuestion(...).heldOut`, file order). */
export function liveSet(qqp: readonly QqpPair[], count: number): LiveSet {
  const duplicates = new Set(qqp.filter((p) => p.duplicate).map((p) => pairKey(asked(p.a), asked(p.b))));
  return {
    pairs: splitByQuestion(qqp).heldOut.slice(0, count),
    duplicateOf: (x, y) => asked(x) === asked(y) || duplicates.has(pairKey(asked(x), asked(y))),
  };
}

/**
 * PAWS's acceptance set: one pair per source sentence (`onePerSource`), of the held-out half of
 * paws-dev (`splitBySource`) or, for another PAWS file (its test split, at acceptance), of all of
 * it. `duplicate` is PAWS's label (paraphrase); `duplicateOf` reads PAWS's labels like QQP's.
 */
export function pawsSet(all: readonly QqpPair[], wholeFile: boolean): LiveSet {
  const duplicates = new Set(all.filter((p) => p.duplicate).map((p) => pairKey(asked(p.a), asked(p.b))));
  return {
    pairs: onePerSource(wholeFile ? all : splitBySource(all).heldOut),
    duplicateOf: (x, y) => asked(x) === asked(y) || duplicates.has(pairKey(asked(x), asked(y))),
  };
}

import { type PairHeadWeights, pairHeadSchema, parsePairHead } from '@svc/semantic';
import * as v from 'valibot';
import data from './minilm-pair-v1.json' with { type: 'json' };

const fileSchema = v.object({ id: v.string(), about: v.string(), threshold: v.number(), minOverlap: v.optional(v.number(), 0), head: pairHeadSchema });

/** The shipped pair model (tooling/evals/src/semantic/pair-model): its id, threshold and head. */
export interface PairModelData {
  id: string;
  threshold: number;
  /**
   * The share of word pieces two texts must have in common for the model to judge them: it was
   * trained on pairs that share their words (PAWS) and misreads rewordings that replace phrases,
   * whose cosine already sees the difference. Under it the model says 1 (no objection).
   */
  minOverlap: number;
  head: PairHeadWeights;
}

/**
 * The id of the pair model's features followed by the fixed projection's (`pairContext`): the
 * same grid model on the first numbers, and what role model v3 reads. Entries stored under the
 * pair model's own id hold 32-number features: they are read again from their text.
 */
export const CONTEXT_PAIR_ID = 'minilm-pair-v2';

let parsed: PairModelData | undefined;

/** The pair model's id, threshold and head (what scores two texts' features on the main thread). */
export function pairModelData(): PairModelData {
  if (!parsed) {
    const file = v.parse(fileSchema, data);
    parsed = { id: file.id, threshold: file.threshold, minOverlap: file.minOverlap, head: parsePairHead(file.head) };
  }
  return parsed;
}

import { type PairHeadWeights, pairHeadSchema, parsePairHead } from '@svc/semantic';
import * as v from 'valibot';
import data from './minilm-pair-v1.json' with { type: 'json' };

const fileSchema = v.object({ id: v.string(), about: v.string(), threshold: v.number(), head: pairHeadSchema });

/** The shipped pair model (tooling/evals/src/semantic/pair-model): its id, threshold and head. */
export interface PairModelData {
  id: string;
  threshold: number;
  head: PairHeadWeights;
}

let parsed: PairModelData | undefined;

/** The pair model's id, threshold and head (what scores two texts' features on the main thread). */
export function pairModelData(): PairModelData {
  if (!parsed) {
    const file = v.parse(fileSchema, data);
    parsed = { id: file.id, threshold: file.threshold, head: parsePairHead(file.head) };
  }
  return parsed;
}

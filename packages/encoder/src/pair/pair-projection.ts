import { CONTEXT_SEED, fixedProjection } from '@svc/semantic/projection';
import * as v from 'valibot';
import type { PairProjection } from '../model/bert-graph.js';
import data from './minilm-pair-v1.json' with { type: 'json' };

// The inference thread's part of the shipped pair model (tooling/evals/src/semantic/pair-model):
// which block's token states it reads and the projection the graph applies to them. Kept apart
// from the head (pair-model-data.ts) so the thread loads nothing of the head's weights.
const projectionSchema = v.object({
  layer: v.pipe(v.number(), v.integer(), v.minValue(1)),
  projection: v.object({ w: v.array(v.number()), b: v.array(v.number()) }),
});

/** Numbers of the fixed projection appended to the pair model's with `context` (issue #27: what role model v3's replaced-word readers read). */
export const CONTEXT_COLUMNS = 64;
/**
 * The fixed columns' scale. A reader renormalises each row, so it changes no cosine; it brings them
 * (up to ~37 on the last block's states, whose few outlier dimensions dominate) near the pair model's
 * own numbers (up to ~3), so one int8 scale per word piece keeps both when an entry stores them.
 */
const CONTEXT_SCALE = 0.08;

/**
 * The projection the encoder's graph applies to one block's token states (trained as PyTorch's
 * `Linear`, `d x hidden`, transposed here); with `context`, followed by {@link CONTEXT_COLUMNS}
 * columns of the fixed projection (seed CONTEXT_SEED, no bias), in the same one matrix.
 */
export function pairProjection(hidden = 384, context = false): PairProjection {
  const { layer, projection } = v.parse(projectionSchema, data);
  const d = projection.b.length;
  if (d === 0 || projection.w.length !== d * hidden) throw new Error(`pair model: the projection is not ${d} x ${hidden}`);
  const extra = context ? CONTEXT_COLUMNS : 0;
  const outputs = d + extra;
  const fixed = context ? fixedProjection(hidden, extra, CONTEXT_SEED) : new Float32Array(0);
  const weight = new Float32Array(hidden * outputs);
  for (let k = 0; k < hidden; k++) {
    for (let o = 0; o < d; o++) weight[k * outputs + o] = projection.w[o * hidden + k]!;
    for (let o = 0; o < extra; o++) weight[k * outputs + d + o] = fixed[k * extra + o]! * CONTEXT_SCALE;
  }
  const bias = new Float32Array(outputs);
  bias.set(projection.b);
  return { layer, linear: { weight, bias, inputs: hidden, outputs } };
}

import * as v from 'valibot';
import type { PairProjection } from '../model/bert-graph.js';
import data from './minilm-pair-v1.json' with { type: 'json' };

// The inference thread's part of the shipped pair model (tooling/evals/src/semantic/pair-model):
// which block's token states it reads and the projection the graph applies to them. Kept apart
// from the head (pair-model-data.ts) so the thread loads nothing of @svc/semantic.
const projectionSchema = v.object({
  layer: v.pipe(v.number(), v.integer(), v.minValue(1)),
  projection: v.object({ w: v.array(v.number()), b: v.array(v.number()) }),
});

/** The projection the encoder's graph applies to one block's token states (trained as PyTorch's `Linear`, `d x hidden`, transposed here). */
export function pairProjection(hidden = 384): PairProjection {
  const { layer, projection } = v.parse(projectionSchema, data);
  const d = projection.b.length;
  if (d === 0 || projection.w.length !== d * hidden) throw new Error(`pair model: the projection is not ${d} x ${hidden}`);
  const weight = new Float32Array(hidden * d);
  for (let o = 0; o < d; o++) for (let k = 0; k < hidden; k++) weight[k * d + o] = projection.w[o * hidden + k]!;
  return { layer, linear: { weight, bias: Float32Array.from(projection.b), inputs: hidden, outputs: d } };
}

import type { HalfLinear } from './bert-weights.js';
import { halfAt } from './fp16.js';
import type { GraphBuilder } from './onnx-builder.js';

/**
 * How the graph holds the checkpoint's large matrices (the 36 dense layers and the word
 * embedding table). `int8`: symmetric 8-bit blocks of 32 values with an fp32 scale each, a
 * quarter of fp32's memory; the dense layers run as onnxruntime's `MatMulNBits` at accuracy
 * level 4 (each block of activations quantised to int8 too, integer dot products: faster than
 * fp32 on one text, where level 0 would widen every weight on every run, 3x slower), the table's
 * rows are widened as gathered. `fp32`: the checkpoint's fp16 values widened once at load.
 */
export const weightFormats = ['int8', 'fp32'] as const;
export type WeightFormat = (typeof weightFormats)[number];

/** Values per scale of a quantised dense layer (along its input). */
const BLOCK = 32;
/** The zero point of unsigned 8-bit blocks (MatMulNBits' default for 8 bits). */
const ZERO = 128;

/**
 * `rows x columns` fp16 values quantised in blocks of `block` along each row: uint8 around {@link ZERO},
 * one scale a block. Several matrices of `columns` (`halves` a list) are quantised one after the
 * other into the same arrays, as if their rows were stacked (no stacked fp16 copy is made).
 */
export function quantiseBlocks(halves: Uint8Array | readonly Uint8Array[], rows: number, columns: number, block: number): { data: Uint8Array; scales: Float32Array } {
  const data = new Uint8Array(rows * columns);
  const scales = new Float32Array((rows * columns) / block);
  let offset = 0;
  for (const part of halves instanceof Uint8Array ? [halves] : halves) {
    for (let from = 0; from < part.length / 2; from += block) {
      let max = 0;
      for (let i = from; i < from + block; i++) max = Math.max(max, Math.abs(halfAt(part, i)));
      const scale = Math.fround(max / 127);
      scales[(offset + from) / block] = scale;
      for (let i = from; i < from + block; i++) data[offset + i] = ZERO + (scale === 0 ? 0 : Math.round(halfAt(part, i) / scale));
    }
    offset += part.length / 2;
  }
  if (offset !== rows * columns) throw new Error(`quantiseBlocks: ${offset} values, expected ${rows} x ${columns}`);
  return { data, scales };
}

/**
 * `x W^T + b` for a checkpoint's dense layer in the given format; for several layers that read
 * the same `x`, one product whose outputs are theirs side by side, in order (one activation
 * quantisation instead of one each).
 */
export function halfDense(g: GraphBuilder, x: string, layers: HalfLinear | readonly HalfLinear[], name: string, format: WeightFormat): string {
  const parts = Array.isArray(layers) ? layers : [layers as HalfLinear];
  const inputs = parts[0]!.inputs;
  if (parts.some((w) => w.inputs !== inputs)) throw new Error(`${name}: the packed layers read inputs of different widths`);
  const outputs = parts.reduce((n, w) => n + w.outputs, 0);
  const biases = new Float32Array(outputs);
  let column = 0;
  for (const w of parts) {
    biases.set(w.bias, column);
    column += w.outputs;
  }
  const bias = g.floats(`${name}.b`, [outputs], biases);
  if (format === 'fp32') {
    // onnxruntime folds the Casts, the Concat and the Transpose into one fp32 [inputs, outputs] initializer at load.
    const halves = parts.map((w, i) => g.halves(`${name}.w${i}`, [w.outputs, inputs], w.weight));
    const stacked = halves.length === 1 ? halves[0]! : g.op('Concat', halves, { axis: 0 });
    const weight = g.op('Transpose', [g.op('Cast', [stacked], { to: 1 })], { perm: [1, 0] });
    return g.op('Add', [g.op('MatMul', [x, weight]), bias]);
  }
  const blocks = inputs / BLOCK;
  const { data, scales } = quantiseBlocks(parts.map((w) => w.weight), outputs, inputs, BLOCK);
  const quantised = g.uint8s(`${name}.q`, [outputs, blocks, BLOCK], data);
  const attributes = { K: inputs, N: outputs, bits: 8, block_size: BLOCK, accuracy_level: 4 };
  // The bias is MatMulNBits' own sixth input (no zero points, no group index): added inside the kernel, no Add node.
  return g.contribOp('MatMulNBits', [x, quantised, g.floats(`${name}.scales`, [outputs, blocks], scales), '', '', bias], attributes);
}
/** The rows of the `[vocab, hidden]` fp16 table that `ids` names, as fp32, in the given format. */
export function gatherRows(g: GraphBuilder, table: Uint8Array, vocab: number, hidden: number, ids: string, format: WeightFormat): string {
  if (format === 'fp32') return g.op('Cast', [g.op('Gather', [g.halves('word_embeddings', [vocab, hidden], table), ids])], { to: 1 });
  const blocks = hidden / BLOCK;
  const { data, scales } = quantiseBlocks(table, vocab, hidden, BLOCK);
  const rows = g.op('Cast', [g.op('Gather', [g.uint8s('word_embeddings.q', [vocab, blocks, BLOCK], data), ids])], { to: 1 });
  const rowScales = g.op('Gather', [g.floats('word_embeddings.scales', [vocab, blocks, 1], scales), ids]);
  const widened = g.op('Mul', [g.op('Sub', [rows, g.scalar('word_embeddings.zero', ZERO)]), rowScales]);
  return g.op('Reshape', [widened, g.int64s('word_embeddings.shape', [3], [0, 0, hidden])]);
}

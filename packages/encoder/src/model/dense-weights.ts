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

/** `rows x columns` fp16 values quantised in blocks of `block` along each row: uint8 around {@link ZERO}, one scale a block. */
export function quantiseBlocks(halves: Uint8Array, rows: number, columns: number, block: number): { data: Uint8Array; scales: Float32Array } {
  const data = new Uint8Array(rows * columns);
  const scales = new Float32Array((rows * columns) / block);
  for (let b = 0; b < scales.length; b++) {
    const from = b * block;
    let max = 0;
    for (let i = from; i < from + block; i++) max = Math.max(max, Math.abs(halfAt(halves, i)));
    const scale = Math.fround(max / 127);
    scales[b] = scale;
    for (let i = from; i < from + block; i++) data[i] = ZERO + (scale === 0 ? 0 : Math.round(halfAt(halves, i) / scale));
  }
  return { data, scales };
}

/** `x W^T + b` for a checkpoint's dense layer, in the given format. */
export function halfDense(g: GraphBuilder, x: string, w: HalfLinear, name: string, format: WeightFormat): string {
  const bias = g.floats(`${name}.b`, [w.outputs], w.bias);
  if (format === 'fp32') {
    // onnxruntime folds the Cast and the Transpose into one fp32 [inputs, outputs] initializer at load.
    const weight = g.op('Transpose', [g.op('Cast', [g.halves(`${name}.w`, [w.outputs, w.inputs], w.weight)], { to: 1 })], { perm: [1, 0] });
    return g.op('Add', [g.op('MatMul', [x, weight]), bias]);
  }
  const blocks = w.inputs / BLOCK;
  const { data, scales } = quantiseBlocks(w.weight, w.outputs, w.inputs, BLOCK);
  const quantised = g.uint8s(`${name}.q`, [w.outputs, blocks, BLOCK], data);
  const attributes = { K: w.inputs, N: w.outputs, bits: 8, block_size: BLOCK, accuracy_level: 4 };
  // The bias is MatMulNBits' own sixth input (no zero points, no group index): added inside the kernel, no Add node.
  return g.contribOp('MatMulNBits', [x, quantised, g.floats(`${name}.scales`, [w.outputs, blocks], scales), '', '', bias], attributes);
}

/** Dense layers that read the same input as one (their outputs side by side, in order): one product instead of several. */
export function packLinears(parts: readonly HalfLinear[]): HalfLinear {
  const weight = new Uint8Array(parts.reduce((n, w) => n + w.weight.length, 0));
  const bias = new Float32Array(parts.reduce((n, w) => n + w.outputs, 0));
  let at = 0;
  let column = 0;
  for (const w of parts) {
    if (w.inputs !== parts[0]!.inputs) throw new Error('packLinears: the layers read inputs of different widths');
    weight.set(w.weight, at);
    bias.set(w.bias, column);
    at += w.weight.length;
    column += w.outputs;
  }
  return { weight, bias, inputs: parts[0]!.inputs, outputs: column };
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

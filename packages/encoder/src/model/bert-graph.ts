import type { BertLayer, BertWeights, HalfLinear, Linear, Norm } from './bert-weights.js';
import { gatherRows, halfDense, type WeightFormat } from './dense-weights.js';
import { GraphBuilder } from './onnx-builder.js';
import { graphNames } from './graph-names.js';

/**
 * A pair model's projection of one block's token states (`pair_features` `[batch, sequence,
 * outputs]`, fetched only when asked for): what a pair model reads of each word piece.
 */
export interface PairProjection {
  /** The block whose output is projected (1-based; the last is the one the pooling reads). */
  layer: number;
  linear: Linear;
}

/** The weighted operations every part of the graph uses: the checkpoint's dense layers in `format`, fp32 ones (the pair projection), LayerNorm. */
interface Ops {
  g: GraphBuilder;
  format: WeightFormat;
  halfDense(x: string, w: HalfLinear | readonly HalfLinear[], name: string): string;
  dense(x: string, w: Linear, name: string): string;
  layerNorm(x: string, n: Norm, name: string): string;
}

function opsOf(g: GraphBuilder, weights: BertWeights, format: WeightFormat): Ops {
  const hidden = weights.config.hidden_size;
  const epsilon = { float: weights.config.layer_norm_eps };
  return {
    g,
    format,
    halfDense: (x, w, name) => halfDense(g, x, w, name, format),
    dense: (x, w, name) => g.op('Add', [g.op('MatMul', [x, g.floats(`${name}.w`, [w.inputs, w.outputs], w.weight)]), g.floats(`${name}.b`, [w.outputs], w.bias)]),
    layerNorm: (x, n, name) => g.op('LayerNormalization', [x, g.floats(`${name}.gamma`, [hidden], n.gamma), g.floats(`${name}.beta`, [hidden], n.beta)], { axis: -1, epsilon }),
  };
}

/** Embeddings: word rows gathered and widened; the position table sliced to the batch's length. */
function embeddings(ops: Ops, weights: BertWeights, zero: string): string {
  const { g } = ops;
  const { config } = weights;
  const sequence = g.op('Shape', [graphNames.inputIds], { start: 1, end: 2 });
  const words = gatherRows(g, weights.wordEmbeddings, config.vocab_size, config.hidden_size, graphNames.inputIds, ops.format);
  const positions = g.op('Slice', [g.floats('position_embeddings', [config.max_position_embeddings, config.hidden_size], weights.positionEmbeddings), zero, sequence, zero]);
  return ops.layerNorm(g.op('Add', [words, positions]), weights.embeddingNorm, 'embeddings.norm');
}

/** What every encoder block shares: the heads and the padding mask. */
interface BlockInputs {
  heads: number;
  hidden: number;
  /** `attention_mask` as int32, MultiHeadAttention's `key_padding_mask` (padding is not attended to). */
  keyPadding: string;
}

/**
 * One post-norm encoder block: self-attention, then the feed-forward with exact GELU, in
 * onnxruntime's contrib operators (com.microsoft): one packed Q/K/V product (one activation
 * quantisation instead of three), `MultiHeadAttention` (scaling, padding mask, softmax and the heads'
 * reshapes in one kernel), `Gelu` (the dense layers' biases are added inside MatMulNBits).
 */
function encoderBlock(ops: Ops, b: BlockInputs, x: string, layer: BertLayer, p: string): string {
  const { g, halfDense: dense } = ops;
  // Add + LayerNormalization, not the contrib SkipLayerNormalization: on one short text its CPU kernel took ~3x the two (profiled, 15 word pieces).
  const skipNorm = (input: string, skip: string, n: Norm, name: string) => ops.layerNorm(g.op('Add', [input, skip]), n, name);
  const qkv = dense(x, [layer.query, layer.key, layer.value], `${p}.qkv`);
  const [q, k, v] = g.opOutputs('Split', [qkv, g.int64s(`${p}.qkv_split`, [3], [b.hidden, b.hidden, b.hidden])], { axis: 2 }, 3) as [string, string, string];
  const context = g.contribOp('MultiHeadAttention', [q, k, v, '', b.keyPadding], { num_heads: b.heads });
  const attended = skipNorm(dense(context, layer.attentionOutput, `${p}.attention_output`), x, layer.attentionNorm, `${p}.attention_norm`);
  const inner = g.contribOp('Gelu', [dense(attended, layer.intermediate, `${p}.intermediate`)], {});
  return skipNorm(dense(inner, layer.output, `${p}.output`), attended, layer.outputNorm, `${p}.output_norm`);
}

/** Mean pooling over real tokens, then L2 normalisation (sentence-transformers' Pooling + Normalize), into the output. */
function poolAndNormalise(g: GraphBuilder, x: string, mask: string, one: string): void {
  const weightsPerToken = g.op('Unsqueeze', [mask, g.int64s('token_axis', [1], [2])]);
  const summed = g.op('ReduceSum', [g.op('Mul', [x, weightsPerToken]), one], { keepdims: 0 });
  const counted = g.op('Max', [g.op('ReduceSum', [weightsPerToken, one], { keepdims: 0 }), g.scalar('min_count', 1e-9)]);
  const pooled = g.op('Div', [summed, counted]);
  const length = g.op('Max', [g.op('ReduceL2', [pooled], { axes: [1], keepdims: 1 }), g.scalar('min_norm', 1e-12)]);
  g.op('Div', [pooled, length], {}, graphNames.output);
}

/**
 * The sentence-transformers pipeline of a BERT checkpoint as one ONNX model: BertModel (word +
 * position + token type embeddings, LayerNorm, post-norm blocks with exact GELU), mean pooling
 * over the attention mask, then L2 normalisation. Opset 17 (LayerNormalization is standard there).
 */
export function buildBertGraph(weights: BertWeights, format: WeightFormat, pairProjection?: PairProjection): Uint8Array {
  const { config } = weights;
  const hidden = config.hidden_size;
  const heads = config.num_attention_heads;
  const g = new GraphBuilder();
  const ops = opsOf(g, weights, format);
  const zero = g.int64s('zero', [1], [0]);
  const one = g.int64s('one', [1], [1]);
  let x = embeddings(ops, weights, zero);
  const mask = g.op('Cast', [graphNames.attentionMask], { to: 1 });
  const block: BlockInputs = { heads, hidden, keyPadding: g.op('Cast', [graphNames.attentionMask], { to: 6 }) };
  let projected: string | undefined;
  weights.layers.forEach((layer, n) => {
    x = encoderBlock(ops, block, x, layer, `layer${n}`);
    if (pairProjection?.layer === n + 1) projected = ops.dense(x, pairProjection.linear, 'pair_projection');
  });
  poolAndNormalise(g, x, mask, one);
  g.op('Identity', [x], {}, graphNames.tokenStates);
  if (pairProjection && !projected) throw new Error(`pair projection: the model has no block ${pairProjection.layer}`);
  if (projected) g.op('Identity', [projected], {}, graphNames.pairFeatures);
  return g.encode({
    inputs: [
      { name: graphNames.inputIds, type: 'int64', shape: ['batch', 'sequence'] },
      { name: graphNames.attentionMask, type: 'int64', shape: ['batch', 'sequence'] },
    ],
    outputs: [
      { name: graphNames.output, type: 'float', shape: ['batch', hidden] },
      { name: graphNames.tokenStates, type: 'float', shape: ['batch', 'sequence', hidden] },
      ...(pairProjection ? [{ name: graphNames.pairFeatures, type: 'float' as const, shape: ['batch', 'sequence', pairProjection.linear.outputs] }] : []),
    ],
    opset: 17,
  });
}

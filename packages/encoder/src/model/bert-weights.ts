import type { BertConfig } from './bert-config.js';
import { halfBytes, readHalfTensor, type Safetensors } from './safetensors.js';

/** A dense layer laid out for `MatMul(x, weight) + bias`: `weight` is `[inputs, outputs]`, row-major. */
export interface Linear {
  weight: Float32Array;
  bias: Float32Array;
  inputs: number;
  outputs: number;
}

/**
 * A checkpoint's dense layer, `x W^T + b`, as stored: `weight` is PyTorch's `[outputs, inputs]`
 * row-major in fp16 (little-endian bytes, a view of the weights file). The graph widens or
 * quantises it (see `dense-weights.ts`); no fp32 copy is made here.
 */
export interface HalfLinear {
  weight: Uint8Array;
  bias: Float32Array;
  inputs: number;
  outputs: number;
}

/** LayerNorm scale and shift. */
export interface Norm {
  gamma: Float32Array;
  beta: Float32Array;
}

/** One transformer block. */
export interface BertLayer {
  query: HalfLinear;
  key: HalfLinear;
  value: HalfLinear;
  attentionOutput: HalfLinear;
  attentionNorm: Norm;
  intermediate: HalfLinear;
  output: HalfLinear;
  outputNorm: Norm;
}

/** A BERT encoder's weights, ready to become graph initializers: the large ones fp16 views of the file, the small ones fp32. */
export interface BertWeights {
  config: BertConfig;
  /** `[vocab, hidden]` fp16 (little-endian bytes): the graph gathers rows and widens only those. */
  wordEmbeddings: Uint8Array;
  /** `[maxPositions, hidden]`, with token type 0's embedding already added (every input is one segment). */
  positionEmbeddings: Float32Array;
  embeddingNorm: Norm;
  layers: BertLayer[];
}

function linear(file: Safetensors, prefix: string, inputs: number, outputs: number): HalfLinear {
  return { weight: halfBytes(file, `${prefix}.weight`, [outputs, inputs]), bias: readHalfTensor(file, `${prefix}.bias`, [outputs]), inputs, outputs };
}

function norm(file: Safetensors, prefix: string, hidden: number): Norm {
  return { gamma: readHalfTensor(file, `${prefix}.weight`, [hidden]), beta: readHalfTensor(file, `${prefix}.bias`, [hidden]) };
}

/**
 * Reads a Hugging Face `BertModel` checkpoint (tensor names without a `bert.` prefix, as
 * sentence-transformers saves them). Throws naming the first tensor that is missing or misshapen.
 */
export function readBertWeights(file: Safetensors, config: BertConfig): BertWeights {
  const hidden = config.hidden_size;
  const inner = config.intermediate_size;
  const positions = readHalfTensor(file, 'embeddings.position_embeddings.weight', [config.max_position_embeddings, hidden]);
  const tokenTypes = readHalfTensor(file, 'embeddings.token_type_embeddings.weight', [config.type_vocab_size, hidden]);
  for (let i = 0; i < positions.length; i++) positions[i]! += tokenTypes[i % hidden]!;
  const layers = Array.from({ length: config.num_hidden_layers }, (_, n): BertLayer => {
    const p = `encoder.layer.${n}`;
    return {
      query: linear(file, `${p}.attention.self.query`, hidden, hidden),
      key: linear(file, `${p}.attention.self.key`, hidden, hidden),
      value: linear(file, `${p}.attention.self.value`, hidden, hidden),
      attentionOutput: linear(file, `${p}.attention.output.dense`, hidden, hidden),
      attentionNorm: norm(file, `${p}.attention.output.LayerNorm`, hidden),
      intermediate: linear(file, `${p}.intermediate.dense`, hidden, inner),
      output: linear(file, `${p}.output.dense`, inner, hidden),
      outputNorm: norm(file, `${p}.output.LayerNorm`, hidden),
    };
  });
  return {
    config,
    wordEmbeddings: halfBytes(file, 'embeddings.word_embeddings.weight', [config.vocab_size, hidden]),
    positionEmbeddings: positions,
    embeddingNorm: norm(file, 'embeddings.LayerNorm', hidden),
    layers,
  };
}

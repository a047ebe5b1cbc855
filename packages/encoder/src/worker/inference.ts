import * as ort from 'onnxruntime-node';
import { fileURLToPath } from 'node:url';
import { type LoadedModel, loadPrebuiltModel } from '../model/model-folder.js';
import { graphKeyOf, prebuiltGraphPath } from '../model/prebuilt-graph.js';
import { WEIGHTS_PACKAGE, weightsPackageDir } from '../model/weights-package.js';
import { graphNames } from '../model/graph-names.js';
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
async function modelOf(modelDir: string, settings: WorkerSettings): Promise<LoadedModel> {
  // Built, this module lies in dist/ beside the prebuilt graph; from source there is none.
  const key = settings.modelDir === undefined ? graphKeyOf(modelDir, settings) : undefined;
  const prebuilt = prebuiltGraphPath(fileURLToPath(new URL('.', import.meta.url)), key);
  if (prebuilt) return loadPrebuiltModel(modelDir, prebuilt);
  // Loaded only here: a start with the prebuilt graph never loads the builder (model-folder.ts).
  const [{ loadModel }, { pairProjection }] = await Promise.all([import('../model/load-model.js'), import('../pair/pair-projection.js')]);
  return loadModel(modelDir, settings.weights, settings.pairModel ? pairProjection(384, settings.pairContext) : undefined);
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

/** The last dimension of the graph's output `name` (the graph declares them: `[batch, hidden]`, `[batch, sequence, width]`), undefined when it has none. */
function outputWidth(session: ort.InferenceSession, name: string): number | undefined {
  const output = session.outputMetadata.find((value) => value.name === name);
  const width = output?.isTensor ? output.shape.at(-1) : undefined;
  return typeof width === 'number' ? width : undefined;
}

/**
 * Loads the weights, builds the graph (or takes the prebuilt one) and opens an onnxruntime session; with `selfCheck`, embeds
 * the reference sentence and compares it with the published vector. Every failure is an
 * {@link EncoderLoadError}. Once `signal` is aborted, runs (the self-check's too) end before
 * their next onnxruntime run.
 */
export async function createInference(settings: WorkerSettings, signal?: AbortSignal): Promise<Inference> {
  const modelDir = settings.modelDir ?? defaultModelDir();
  let model: LoadedModel;
  try {
    model = await modelOf(modelDir, settings);
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
  const dimensions = outputWidth(session, graphNames.output);
  if (dimensions === undefined) throw new EncoderLoadError(`the graph has no ${graphNames.output} output of a fixed width`);
  const pairDimensions = settings.pairModel ? outputWidth(session, graphNames.pairFeatures) : undefined;
  const runner = createModelRunner({ session, tokenizer, dimensions, maxBatchTokens: settings.maxBatchTokens, ...(pairDimensions ? { pairDimensions } : {}), ...(signal ? { signal } : {}) });

  if (settings.selfCheck) {
    const mismatch = referenceMismatch(await runner.run([referenceSentence]), settings.weights);
    if (mismatch) throw new EncoderLoadError(mismatch);
  }
  return { dimensions, ...runner };
}

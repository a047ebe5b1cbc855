import { type QualityModel, extractFeatures, textSignalCount, textSignals } from '@svc/router';
import type { Item } from './data.js';

/** One training prompt: its vector, text signals and per-model outcomes (model index, correct). */
export interface Example {
  embedding: Float32Array;
  signals: Float32Array;
  models: Int32Array;
  correct: Uint8Array;
}

export interface TrainSettings {
  /** Full-batch Adam steps (default 250). */
  steps?: number;
  learningRate?: number;
  /** L2 penalty on the weights (default 1e-3). */
  l2?: number;
  /** Read the embedding (default true); false trains a text-signals-only difficulty. */
  useEmbedding?: boolean;
  /** Read the text signals (default true). */
  useText?: boolean;
}

/** Signals of a prompt sent as one user message. */
export function promptSignals(prompt: string): Float32Array {
  return textSignals(extractFeatures({ model: 'svc/auto', messages: [{ role: 'user', content: prompt }], stream: false, n: 1, includeUsage: false }));
}

/** Examples of labelled items; model names are prefixed by source (the same model evaluated two ways is two models). */
export function toExamples(items: readonly Item[], vectors: readonly Float32Array[], modelIndex: Map<string, number>): Example[] {
  return items.map((item, i) => {
    const entries = Object.entries(item.correct);
    const models = new Int32Array(entries.length);
    const correct = new Uint8Array(entries.length);
    entries.forEach(([name, ok], j) => {
      const key = `${item.source}:${name}`;
      let index = modelIndex.get(key);
      if (index === undefined) {
        index = modelIndex.size;
        modelIndex.set(key, index);
      }
      models[j] = index;
      correct[j] = ok ? 1 : 0;
    });
    return { embedding: vectors[i]!, signals: promptSignals(item.prompt), models, correct };
  });
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-Math.max(-30, Math.min(30, z))));

interface Adam {
  step(params: Float64Array, grad: Float64Array): void;
}

function adam(size: number, rate: number): Adam {
  const m = new Float64Array(size);
  const v = new Float64Array(size);
  let t = 0;
  return {
    step(params, grad) {
      t++;
      const c1 = 1 - 0.9 ** t;
      const c2 = 1 - 0.999 ** t;
      for (let i = 0; i < size; i++) {
        m[i] = 0.9 * m[i]! + 0.1 * grad[i]!;
        v[i] = 0.999 * v[i]! + 0.001 * grad[i]! * grad[i]!;
        params[i]! -= (rate * (m[i]! / c1)) / (Math.sqrt(v[i]! / c2) + 1e-8);
      }
    },
  };
}

/**
 * Fits the Rasch difficulty model: P(model m right on x) = sigmoid(theta_m - d(x)), d linear in
 * the embedding and text signals; full-batch Adam on the mean log loss. Parameters: [bias,
 * embedding weights, text weights, abilities].
 */
export function fitDifficulty(examples: readonly Example[], modelCount: number, settings: TrainSettings = {}): { params: Float64Array; dims: number } {
  const dims = examples[0]!.embedding.length;
  const useEmbedding = settings.useEmbedding ?? true;
  const useText = settings.useText ?? true;
  const size = 1 + dims + textSignalCount + modelCount;
  const params = new Float64Array(size);
  const grad = new Float64Array(size);
  const optimiser = adam(size, settings.learningRate ?? 0.02);
  const l2 = settings.l2 ?? 1e-3;
  const theta0 = 1 + dims + textSignalCount;
  let observations = 0;
  for (const e of examples) observations += e.models.length;
  for (let step = 0; step < (settings.steps ?? 250); step++) {
    grad.fill(0);
    for (const e of examples) {
      const d = predict(params, e, dims, useEmbedding, useText);
      let gd = 0;
      for (let j = 0; j < e.models.length; j++) {
        const k = theta0 + e.models[j]!;
        const r = sigmoid(params[k]! - d) - e.correct[j]!;
        grad[k]! += r / observations;
        gd -= r / observations;
      }
      grad[0]! += gd;
      if (useEmbedding) for (let i = 0; i < dims; i++) grad[1 + i]! += gd * e.embedding[i]!;
      if (useText) for (let i = 0; i < textSignalCount; i++) grad[1 + dims + i]! += gd * e.signals[i]!;
    }
    for (let i = 1; i < theta0; i++) grad[i]! += 2 * l2 * params[i]!;
    optimiser.step(params, grad);
  }
  return { params, dims };
}

function predict(params: Float64Array, e: Example, dims: number, useEmbedding: boolean, useText: boolean): number {
  let d = params[0]!;
  if (useEmbedding) for (let i = 0; i < dims; i++) d += params[1 + i]! * e.embedding[i]!;
  if (useText) for (let i = 0; i < textSignalCount; i++) d += params[1 + dims + i]! * e.signals[i]!;
  return d;
}

/** Least-squares fit (ridge) of the full model's difficulty from the text signals alone: the head used without an embedding. */
function fitTextOnly(examples: readonly Example[], targets: Float64Array): { bias: number; weights: Float32Array } {
  const k = textSignalCount + 1;
  const a = new Float64Array(k * k);
  const b = new Float64Array(k);
  const row = new Float64Array(k);
  examples.forEach((e, n) => {
    row[0] = 1;
    for (let i = 0; i < textSignalCount; i++) row[i + 1] = e.signals[i]!;
    for (let i = 0; i < k; i++) {
      b[i]! += row[i]! * targets[n]!;
      for (let j = 0; j < k; j++) a[i * k + j]! += row[i]! * row[j]!;
    }
  });
  for (let i = 0; i < k; i++) a[i * k + i]! += 1e-3 * examples.length;
  const x = solve(a, b, k);
  return { bias: x[0]!, weights: Float32Array.from(x.subarray(1)) };
}

/** Gaussian elimination with partial pivoting of the k x k system. */
function solve(a: Float64Array, b: Float64Array, k: number): Float64Array {
  const m = Float64Array.from(a);
  const x = Float64Array.from(b);
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(m[r * k + c]!) > Math.abs(m[p * k + c]!)) p = r;
    for (let j = 0; j < k; j++) [m[c * k + j], m[p * k + j]] = [m[p * k + j]!, m[c * k + j]!];
    [x[c], x[p]] = [x[p]!, x[c]!];
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = m[r * k + c]! / m[c * k + c]!;
      for (let j = 0; j < k; j++) m[r * k + j]! -= f * m[c * k + j]!;
      x[r]! -= f * x[c]!;
    }
  }
  for (let i = 0; i < k; i++) x[i]! /= m[i * k + i]!;
  return x;
}

/** Trains the shipped form: the Rasch model, its text-only head, and the difficulty quantiles. */
export function trainQualityModel(examples: readonly Example[], modelIndex: ReadonlyMap<string, number>, trainedOn: string, settings: TrainSettings = {}): QualityModel {
  const { params, dims } = fitDifficulty(examples, modelIndex.size, settings);
  const useEmbedding = settings.useEmbedding ?? true;
  const useText = settings.useText ?? true;
  const d = Float64Array.from(examples, (e) => predict(params, e, dims, useEmbedding, useText));
  const sorted = Float64Array.from(d).sort();
  const quantiles = Float32Array.from({ length: 101 }, (_, i) => sorted[Math.min(sorted.length - 1, Math.round((i / 100) * (sorted.length - 1)))]!);
  const theta0 = 1 + dims + textSignalCount;
  return {
    version: 1,
    embedder: 'all-MiniLM-L6-v2',
    dimensions: dims,
    bias: params[0]!,
    embeddingWeights: useEmbedding ? Float32Array.from(params.subarray(1, 1 + dims)) : new Float32Array(dims),
    textWeights: useText ? Float32Array.from(params.subarray(1 + dims, theta0)) : new Float32Array(textSignalCount),
    textOnly: fitTextOnly(examples, d),
    difficultyQuantiles: quantiles,
    abilities: Object.fromEntries([...modelIndex].map(([name, i]) => [name, Math.round(params[theta0 + i]! * 1e4) / 1e4])),
    trainedOn,
  };
}

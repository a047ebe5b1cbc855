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

/** Parameter layout: difficulty head, discrimination head (each bias, embedding, text), abilities. */
interface Layout {
  dims: number;
  head: number;
  theta0: number;
}

const layoutOf = (dims: number): Layout => ({ dims, head: 1 + dims + textSignalCount, theta0: 2 * (1 + dims + textSignalCount) });

/**
 * Fits the 2PL item model: P(model m right on x) = sigmoid(a(x) theta_m - d(x)), with d and
 * log a linear in the embedding and text signals; full-batch Adam on the mean log loss.
 */
export function fitItems(examples: readonly Example[], modelCount: number, settings: TrainSettings = {}): { params: Float64Array; layout: Layout } {
  const layout = layoutOf(examples[0]!.embedding.length);
  const size = layout.theta0 + modelCount;
  const params = new Float64Array(size);
  const grad = new Float64Array(size);
  const optimiser = adam(size, settings.learningRate ?? 0.02);
  const l2 = settings.l2 ?? 1e-3;
  let observations = 0;
  for (const e of examples) observations += e.models.length;
  for (let step = 0; step < (settings.steps ?? 250); step++) {
    grad.fill(0);
    for (const e of examples) {
      const d = head(params, 0, e, layout, settings);
      const z = Math.max(-3, Math.min(3, head(params, layout.head, e, layout, settings)));
      const a = Math.exp(z);
      let gd = 0;
      let gz = 0;
      for (let j = 0; j < e.models.length; j++) {
        const k = layout.theta0 + e.models[j]!;
        const r = (sigmoid(a * params[k]! - d) - e.correct[j]!) / observations;
        grad[k]! += r * a;
        gd -= r;
        gz += r * params[k]! * a;
      }
      addHead(grad, 0, gd, e, layout, settings);
      addHead(grad, layout.head, gz, e, layout, settings);
    }
    for (let i = 1; i < layout.theta0; i++) if (i !== layout.head) grad[i]! += 2 * l2 * params[i]!;
    optimiser.step(params, grad);
  }
  return { params, layout };
}

/** One linear head (bias, embedding weights, text weights) at `at`. */
function head(params: Float64Array, at: number, e: Example, layout: Layout, settings: TrainSettings): number {
  let v = params[at]!;
  if (settings.useEmbedding ?? true) for (let i = 0; i < layout.dims; i++) v += params[at + 1 + i]! * e.embedding[i]!;
  if (settings.useText ?? true) for (let i = 0; i < textSignalCount; i++) v += params[at + 1 + layout.dims + i]! * e.signals[i]!;
  return v;
}

function addHead(grad: Float64Array, at: number, g: number, e: Example, layout: Layout, settings: TrainSettings): void {
  grad[at]! += g;
  if (settings.useEmbedding ?? true) for (let i = 0; i < layout.dims; i++) grad[at + 1 + i]! += g * e.embedding[i]!;
  if (settings.useText ?? true) for (let i = 0; i < textSignalCount; i++) grad[at + 1 + layout.dims + i]! += g * e.signals[i]!;
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

const slice = (params: Float64Array, from: number, length: number, on: boolean) => (on ? Float32Array.from(params.subarray(from, from + length)) : new Float32Array(length));

/** Trains the shipped form: the 2PL item model, its text-only heads, and a sample of training items for the prior-to-ability map. */
export function trainQualityModel(examples: readonly Example[], modelIndex: ReadonlyMap<string, number>, trainedOn: string, settings: TrainSettings = {}): QualityModel {
  const { params, layout } = fitItems(examples, modelIndex.size, settings);
  const useEmbedding = settings.useEmbedding ?? true;
  const useText = settings.useText ?? true;
  const { dims } = layout;
  const d = Float64Array.from(examples, (e) => head(params, 0, e, layout, settings));
  const z = Float64Array.from(examples, (e) => Math.max(-3, Math.min(3, head(params, layout.head, e, layout, settings))));
  const order = Array.from(d.keys()).sort((x, y) => d[x]! - d[y]!);
  const picks = Array.from({ length: 257 }, (_, i) => order[Math.round((i / 256) * (order.length - 1))]!);
  const h = layout.head;
  return {
    version: 1,
    embedder: 'all-MiniLM-L6-v2',
    dimensions: dims,
    bias: params[0]!,
    embeddingWeights: slice(params, 1, dims, useEmbedding),
    textWeights: slice(params, 1 + dims, textSignalCount, useText),
    textOnly: fitTextOnly(examples, d),
    discrimination: {
      bias: params[h]!,
      embeddingWeights: slice(params, h + 1, dims, useEmbedding),
      textWeights: slice(params, h + 1 + dims, textSignalCount, useText),
      textOnly: fitTextOnly(examples, z),
    },
    difficultyQuantiles: Float32Array.from(picks, (i) => d[i]!),
    discriminationSample: Float32Array.from(picks, (i) => z[i]!),
    abilities: Object.fromEntries([...modelIndex].map(([name, i]) => [name, Math.round(params[layout.theta0 + i]! * 1e4) / 1e4])),
    trainedOn,
  };
}

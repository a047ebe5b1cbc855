import { type QualityModel, extractFeatures, textSignalCount, textSignals } from '@svc/router';
import type { Item } from './data.js';

/** One training prompt: its vector, text signals and per-model outcomes (model index, correct). */
export interface Example {
  embedding: Float32Array;
  signals: Float32Array;
  models: Int32Array;
  correct: Uint8Array;
  /** Data set and subject group (index in the group map), for balancing and group effects. */
  source: string;
  group: number;
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
  /**
   * Per subject group offsets of difficulty and log discrimination and per model and group offsets
   * of ability, learned alongside and dropped from the shipped model (default false): the heads then
   * learn what makes a prompt harder than others of its kind, which transfers to unseen data sets,
   * instead of telling the training data sets apart.
   */
  groupEffects?: boolean;
  /** L2 penalty on the group offsets (default 1e-3). */
  groupL2?: number;
  /** Weigh every source equally, whatever its size (default false). */
  balanceSources?: boolean;
}

/** Signals of a prompt sent as one user message. */
export function promptSignals(prompt: string): Float32Array {
  return textSignals(extractFeatures({ model: 'svc/auto', messages: [{ role: 'user', content: prompt }], stream: false, n: 1, includeUsage: false }));
}

/** Examples of labelled items; model names are prefixed by source (the same model evaluated two ways is two models). */
export function toExamples(items: readonly Item[], vectors: readonly Float32Array[], modelIndex: Map<string, number>, groupIndex: Map<string, number> = new Map()): Example[] {
  return items.map((item, i) => {
    const groupKey = `${item.source}:${item.group}`;
    if (!groupIndex.has(groupKey)) groupIndex.set(groupKey, groupIndex.size);
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
    return { embedding: vectors[i]!, signals: promptSignals(item.prompt), models, correct, source: item.source, group: groupIndex.get(groupKey)! };
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

/** Parameter layout: difficulty head, discrimination head (each bias, embedding, text), abilities, then the group offsets. */
interface Layout {
  dims: number;
  head: number;
  theta0: number;
  models: number;
  groups: number;
  /** Group difficulty offsets, group log-discrimination offsets, model x group ability offsets (0 groups when off). */
  groupD: number;
  groupA: number;
  modelGroup: number;
  size: number;
}

function layoutOf(dims: number, models: number, groups: number): Layout {
  const theta0 = 2 * (1 + dims + textSignalCount);
  const groupD = theta0 + models;
  const groupA = groupD + groups;
  const modelGroup = groupA + groups;
  return { dims, head: 1 + dims + textSignalCount, theta0, models, groups, groupD, groupA, modelGroup, size: modelGroup + models * groups };
}

/** Per-example weights: 1, or equal total weight per source; normalised so they sum to the observation count. */
function exampleWeights(examples: readonly Example[], balance: boolean): Float64Array {
  const perSource = new Map<string, number>();
  for (const e of examples) perSource.set(e.source, (perSource.get(e.source) ?? 0) + e.models.length);
  let observations = 0;
  for (const n of perSource.values()) observations += n;
  return Float64Array.from(examples, (e) => (balance ? observations / perSource.size / perSource.get(e.source)! : 1) / observations);
}

/**
 * Fits the 2PL item model: P(model m right on x) = sigmoid(a(x) theta_m - d(x)), with d and
 * log a linear in the embedding and text signals (plus group offsets while training, when
 * `groupEffects`); full-batch Adam on the (weighted) mean log loss.
 */
export function fitItems(examples: readonly Example[], modelCount: number, settings: TrainSettings = {}): { params: Float64Array; layout: Layout } {
  const groups = settings.groupEffects ? Math.max(...examples.map((e) => e.group)) + 1 : 0;
  const layout = layoutOf(examples[0]!.embedding.length, modelCount, groups);
  const params = new Float64Array(layout.size);
  const grad = new Float64Array(layout.size);
  const optimiser = adam(layout.size, settings.learningRate ?? 0.02);
  const weights = exampleWeights(examples, settings.balanceSources ?? false);
  for (let step = 0; step < (settings.steps ?? 250); step++) {
    grad.fill(0);
    for (let n = 0; n < examples.length; n++) accumulate(params, grad, examples[n]!, weights[n]!, layout, settings);
    regularise(params, grad, layout, settings);
    optimiser.step(params, grad);
  }
  return { params, layout };
}

/** Adds one example's log-loss gradient (weight `w`). */
function accumulate(params: Float64Array, grad: Float64Array, e: Example, w: number, layout: Layout, settings: TrainSettings): void {
  const g = layout.groups > 0 ? e.group : -1;
  const d = head(params, 0, e, layout, settings) + (g >= 0 ? params[layout.groupD + g]! : 0);
  const zRaw = head(params, layout.head, e, layout, settings) + (g >= 0 ? params[layout.groupA + g]! : 0);
  const z = Math.max(-3, Math.min(3, zRaw));
  const a = Math.exp(z);
  let gd = 0;
  let gz = 0;
  for (let j = 0; j < e.models.length; j++) {
    const m = e.models[j]!;
    const k = layout.theta0 + m;
    const km = g >= 0 ? layout.modelGroup + m * layout.groups + g : -1;
    const theta = params[k]! + (km >= 0 ? params[km]! : 0);
    const r = (sigmoid(a * theta - d) - e.correct[j]!) * w;
    grad[k]! += r * a;
    if (km >= 0) grad[km]! += r * a;
    gd -= r;
    gz += r * theta * a;
  }
  if (zRaw !== z) gz = 0;
  addHead(grad, 0, gd, e, layout, settings);
  addHead(grad, layout.head, gz, e, layout, settings);
  if (g >= 0) {
    grad[layout.groupD + g]! += gd;
    grad[layout.groupA + g]! += gz;
  }
}

/** L2 on the head weights (not the biases or abilities) and on the group offsets. */
function regularise(params: Float64Array, grad: Float64Array, layout: Layout, settings: TrainSettings): void {
  const l2 = settings.l2 ?? 1e-3;
  for (let i = 1; i < layout.theta0; i++) if (i !== layout.head) grad[i]! += 2 * l2 * params[i]!;
  const groupL2 = settings.groupL2 ?? 1e-3;
  for (let i = layout.groupD; i < layout.size; i++) grad[i]! += 2 * groupL2 * params[i]!;
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
  // The sample behind the prior-to-ability map keeps the group offsets: a prior is an accuracy over prompts of every kind.
  const offset = (at: number, e: Example) => (layout.groups > 0 ? params[at + e.group]! : 0);
  const dHead = Float64Array.from(examples, (e) => head(params, 0, e, layout, settings));
  const zHead = Float64Array.from(examples, (e) => Math.max(-3, Math.min(3, head(params, layout.head, e, layout, settings))));
  const d = Float64Array.from(examples, (e, n) => dHead[n]! + offset(layout.groupD, e));
  const z = Float64Array.from(examples, (e, n) => Math.max(-3, Math.min(3, zHead[n]! + offset(layout.groupA, e))));
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
    textOnly: fitTextOnly(examples, dHead),
    discrimination: {
      bias: params[h]!,
      embeddingWeights: slice(params, h + 1, dims, useEmbedding),
      textWeights: slice(params, h + 1 + dims, textSignalCount, useText),
      textOnly: fitTextOnly(examples, zHead),
    },
    difficultyQuantiles: Float32Array.from(picks, (i) => d[i]!),
    discriminationSample: Float32Array.from(picks, (i) => z[i]!),
    abilities: Object.fromEntries([...modelIndex].map(([name, i]) => [name, Math.round(params[layout.theta0 + i]! * 1e4) / 1e4])),
    trainedOn,
  };
}

import { classify, createQualityEstimator, extractFeatures, type QualityModel, type WinRateForm } from '@svc/router';
import type { Item } from './data.js';
import { evaluate, rank, type Row } from './metrics.js';
import { accuracy, pairs, priorPool } from './pairs.js';
import { type Example, type TrainSettings, trainQualityModel } from './train.js';

/** APGR of one alternative quality model on one pair's dev prompts of a fold. */
export interface AlternativeResult {
  name: string;
  pair: string;
  apgr: number;
  saving95: number;
}

export interface AlternativeInput {
  train: Item[];
  trainVectors: Float32Array[];
  examples: Example[];
  index: Map<string, number>;
  dev: Item[];
  devVectors: Float32Array[];
  /** The fold's training settings (the alternatives change one thing). */
  settings: TrainSettings;
  /** The fold's trained model (embedding + text). */
  model: QualityModel;
}

const ask = (prompt: string) => ({ model: 'svc/auto', messages: [{ role: 'user' as const, content: prompt }], stream: false, n: 1, includeUsage: false });

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** kNN router: mean (strong right - weak right) over the k most similar training prompts of the pair's source. */
function knnScores(input: AlternativeInput, devIdx: number[], strong: string, weak: string, k: number): number[] {
  const pool: { v: Float32Array; gain: number }[] = [];
  input.train.forEach((item, i) => {
    const s = item.correct[strong];
    const w = item.correct[weak];
    if (s !== undefined && w !== undefined) pool.push({ v: input.trainVectors[i]!, gain: Number(s) - Number(w) });
  });
  const sims = new Float64Array(pool.length);
  return devIdx.map((d) => {
    const v = input.devVectors[d]!;
    for (let j = 0; j < pool.length; j++) sims[j] = dot(v, pool[j]!.v);
    const order = Array.from(sims.keys()).sort((a, b) => sims[b]! - sims[a]!);
    let s = 0;
    for (let j = 0; j < k && j < order.length; j++) s += pool[order[j]!]!.gain;
    return s / k;
  });
}

/** Each prompt's mean of its two fractional ranks (0..1) under `a` and `b`: an ensemble that needs no common scale. */
function meanRank(a: readonly number[], b: readonly number[]): number[] {
  const fractional = (xs: readonly number[]) => {
    const order = xs.map((_, i) => i).sort((i, j) => xs[i]! - xs[j]!);
    const out = new Array<number>(xs.length);
    order.forEach((i, r) => {
      out[i] = r / Math.max(1, xs.length - 1);
    });
    return out;
  };
  const ra = fractional(a);
  const rb = fractional(b);
  return ra.map((x, i) => (x + rb[i]!) / 2);
}

/** Ranks of the dev prompts by other quality models, for the comparison in docs/routing.md (internals, not the API). */
export function alternatives(input: AlternativeInput): AlternativeResult[] {
  const variants: [string, QualityModel, WinRateForm][] = [
    ['2PL item model, embedding + text, win rate growing with difficulty (weaker-fails)', input.model, 'weaker-fails'],
    ['2PL item model, text signals only', trainQualityModel(input.examples, input.index, 'text only', { ...input.settings, useEmbedding: false }), 'independent'],
    ['2PL item model, embedding only', trainQualityModel(input.examples, input.index, 'embedding only', { ...input.settings, useText: false }), 'independent'],
  ];
  const out: AlternativeResult[] = [];
  for (const pair of pairs) {
    const devIdx = input.dev.map((_, i) => i).filter((i) => input.dev[i]!.source === pair.source && input.dev[i]!.correct[pair.strong] !== undefined && input.dev[i]!.correct[pair.weak] !== undefined);
    if (devIdx.length < 50) continue;
    const rows: Row[] = devIdx.map((i) => ({ strong: input.dev[i]!.correct[pair.strong]!, weak: input.dev[i]!.correct[pair.weak]! }));
    const own = priorPool(pair, input.train, input.dev);
    const priors = { strong: accuracy(own, pair.strong), weak: accuracy(own, pair.weak) };
    const name = `${pair.source}: ${pair.strong} / ${pair.weak}`;
    const push = (label: string, scores: number[]) => {
      const m = evaluate(rank(rows, scores), pair.prices);
      out.push({ name: label, pair: name, apgr: m.apgr, saving95: m.saving95 });
    };
    for (const [label, model, form] of variants) {
      const q = createQualityEstimator(model);
      push(label, devIdx.map((i) => {
        const item = q.item(extractFeatures(ask(input.dev[i]!.prompt)), label.includes('text signals only') ? undefined : input.devVectors[i]);
        return q.winRate(priors.strong, priors.weak, item, form);
      }));
    }
    // kNN needs the pair's own labels in training (none when its source is held out); over at most 1,500 dev prompts (brute force is slow in JS); the sample keeps every 1 in n.
    const heuristic = devIdx.map((i) => classify(extractFeatures(ask(input.dev[i]!.prompt))).score);
    push('heuristic complexity score (classify)', heuristic);
    const shipped = createQualityEstimator(input.model);
    const learned = devIdx.map((i) => shipped.winRate(priors.strong, priors.weak, shipped.item(extractFeatures(ask(input.dev[i]!.prompt)), input.devVectors[i]), 'independent'));
    push('mean rank of the 2PL win rate and the heuristic score', meanRank(learned, heuristic));
    if (!input.train.some((i) => i.source === pair.source)) continue;
    const step = Math.max(1, Math.ceil(devIdx.length / 1500));
    const sample = devIdx.filter((_, j) => j % step === 0);
    const sampleRows = sample.map((i) => ({ strong: input.dev[i]!.correct[pair.strong]!, weak: input.dev[i]!.correct[pair.weak]! }));
    const knn = evaluate(rank(sampleRows, knnScores(input, sample, pair.strong, pair.weak, 40)), pair.prices);
    out.push({ name: `kNN k=40 over the pair's training prompts (${sample.length} dev prompts)`, pair: name, apgr: knn.apgr, saving95: knn.saving95 });
  }
  return out;
}

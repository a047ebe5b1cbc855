import type { RerankRequestRows } from './rerank-data.js';

/** A linear scorer: a candidate is admitted when `bias + weights . features >= threshold` (or it clears the floor). */
export interface RerankModel {
  weights: number[];
  bias: number;
  threshold: number;
}

/** A logistic regression over the candidates' features, classes weighted equally, L2 on the standardised weights. */
export function fitLogistic(requests: readonly RerankRequestRows[], options: { epochs?: number; rate?: number; l2?: number } = {}): { weights: number[]; bias: number } {
  const rows = requests.flatMap((r) => r.rows);
  const width = rows[0]?.features.length ?? 0;
  const mean = Array.from({ length: width }, (_, j) => rows.reduce((s, r) => s + r.features[j]!, 0) / rows.length);
  const std = Array.from({ length: width }, (_, j) => Math.sqrt(rows.reduce((s, r) => s + (r.features[j]! - mean[j]!) ** 2, 0) / rows.length) || 1);
  const x = rows.map((r) => r.features.map((v, j) => (v - mean[j]!) / std[j]!));
  const positives = rows.filter((r) => r.answer).length;
  const weightOf = (answer: boolean) => (answer ? rows.length / (2 * positives) : rows.length / (2 * (rows.length - positives)));
  const w = new Array<number>(width).fill(0);
  let b = 0;
  const { epochs = 400, rate = 0.5, l2 = 1e-3 } = options;
  for (let epoch = 0; epoch < epochs; epoch++) {
    const grad = new Array<number>(width).fill(0);
    let gradB = 0;
    for (const [i, row] of rows.entries()) {
      const z = b + x[i]!.reduce((s, v, j) => s + v * w[j]!, 0);
      const error = (1 / (1 + Math.exp(-z)) - (row.answer ? 1 : 0)) * weightOf(row.answer);
      for (let j = 0; j < width; j++) grad[j]! += error * x[i]![j]!;
      gradB += error;
    }
    for (let j = 0; j < width; j++) w[j]! -= rate * (grad[j]! / rows.length + l2 * w[j]!);
    b -= (rate * gradB) / rows.length;
  }
  // Back to raw features: w_j / std_j, and the means folded into the bias.
  const weights = w.map((v, j) => v / std[j]!);
  return { weights, bias: b - weights.reduce((s, v, j) => s + v * mean[j]!, 0) };
}

const logit = (model: { weights: readonly number[]; bias: number }, features: readonly number[]) => model.bias + model.weights.reduce((s, v, j) => s + v * (features[j] ?? 0), 0);

/** At threshold `t`, with the floors kept (`union`) or the scorer alone on the nearest facts: share of unrelated prompts given anything, of related questions given their answer, of retracted-value questions given anything new. */
export function admitted(requests: readonly RerankRequestRows[], model: { weights: readonly number[]; bias: number }, threshold: number, union = true) {
  const admits = (row: RerankRequestRows['rows'][number]) => (union && row.floor) || logit(model, row.features) >= threshold;
  const share = (kind: RerankRequestRows['kind'], hit: (r: RerankRequestRows) => boolean) => {
    const of = requests.filter((r) => r.kind === kind);
    return of.filter(hit).length / Math.max(1, of.length);
  };
  return {
    falseInjection: share('unrelated', (r) => r.rows.some(admits)),
    related: share('related', (r) => r.rows.some((row) => row.answer && admits(row))),
  };
}

/** The lowest threshold (of the candidates' logits) at which unrelated prompts stay within `budget`. */
export function chooseThreshold(requests: readonly RerankRequestRows[], model: { weights: readonly number[]; bias: number }, budget: number, union = true): RerankModel {
  const logits = [...new Set(requests.flatMap((r) => r.rows.map((row) => logit(model, row.features))))].sort((a, b) => b - a);
  let threshold = logits[0] ?? 0;
  for (const t of logits) {
    if (admitted(requests, model, t, union).falseInjection > budget) break;
    threshold = t;
  }
  return { weights: model.weights.map((v) => Number(v.toFixed(4))), bias: Number(model.bias.toFixed(4)), threshold: Number(threshold.toFixed(4)) };
}

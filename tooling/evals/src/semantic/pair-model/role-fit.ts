/**
 * Fits the role model (one ReLU layer, a logistic unit, standardised inputs) by full-batch Adam on
 * weighted examples, with weight decay; deterministic for a seed.
 */

/** One training example: inputs, label, weight. */
export interface Example {
  x: number[];
  y: number;
  w: number;
}

/** Fitted weights in the layout of the role model's file. */
export interface Fitted {
  mean: number[];
  scale: number[];
  hidden: { w: number[]; b: number[] };
  out: { w: number[]; b: number[] };
}

export interface FitOptions {
  units: number;
  epochs: number;
  rate: number;
  decay: number;
  seed: number;
}

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

function standardisation(examples: readonly Example[]): { mean: number[]; scale: number[] } {
  const width = examples[0]!.x.length;
  const mean = Array.from({ length: width }, (_, k) => examples.reduce((s, e) => s + e.x[k]!, 0) / examples.length);
  const scale = mean.map((m, k) => Math.sqrt(examples.reduce((s, e) => s + (e.x[k]! - m) ** 2, 0) / examples.length) || 1);
  return { mean, scale };
}

/** Adam state over one flat parameter vector. */
function adam(size: number, rate: number) {
  const [m, v] = [new Float64Array(size), new Float64Array(size)];
  let t = 0;
  return (params: Float64Array, grad: Float64Array) => {
    t++;
    for (let k = 0; k < size; k++) {
      m[k] = 0.9 * m[k]! + 0.1 * grad[k]!;
      v[k] = 0.999 * v[k]! + 0.001 * grad[k]! ** 2;
      params[k] = params[k]! - (rate * (m[k]! / (1 - 0.9 ** t))) / (Math.sqrt(v[k]! / (1 - 0.999 ** t)) + 1e-8);
    }
  };
}

/** Forward and backward over every example; returns the gradient of the weighted mean log loss plus decay. */
function gradient(params: Float64Array, xs: readonly Float64Array[], examples: readonly Example[], width: number, units: number, decay: number): Float64Array {
  const grad = new Float64Array(params.length);
  const [wOut, bOut, bHidden] = [units * width + units, units * width + 2 * units, units * width];
  const total = examples.reduce((s, e) => s + e.w, 0);
  const h = new Float64Array(units);
  xs.forEach((x, n) => {
    let z = params[bOut]!;
    for (let u = 0; u < units; u++) {
      let a = params[bHidden + u]!;
      for (let k = 0; k < width; k++) a += params[u * width + k]! * x[k]!;
      h[u] = Math.max(0, a);
      z += params[wOut + u]! * h[u]!;
    }
    const e = examples[n]!;
    const dz = ((1 / (1 + Math.exp(-z)) - e.y) * e.w) / total;
    grad[bOut] = grad[bOut]! + dz;
    for (let u = 0; u < units; u++) {
      grad[wOut + u] = grad[wOut + u]! + dz * h[u]!;
      if (h[u]! <= 0) continue;
      const dh = dz * params[wOut + u]!;
      grad[bHidden + u] = grad[bHidden + u]! + dh;
      for (let k = 0; k < width; k++) grad[u * width + k] = grad[u * width + k]! + dh * x[k]!;
    }
  });
  for (let k = 0; k < units * width; k++) grad[k] = grad[k]! + decay * params[k]!;
  return grad;
}

/** Fits the model on the examples. */
export function fit(examples: readonly Example[], options: FitOptions): Fitted {
  const { mean, scale } = standardisation(examples);
  const width = mean.length;
  const { units } = options;
  const xs = examples.map((e) => Float64Array.from(e.x, (value, k) => (value - mean[k]!) / scale[k]!));
  const random = rng(options.seed);
  // Layout: hidden weights (units x width), hidden biases, output weights, output bias.
  const params = new Float64Array(units * width + 2 * units + 1);
  for (let k = 0; k < units * width; k++) params[k] = (random() * 2 - 1) * Math.sqrt(6 / (width + units));
  for (let u = 0; u < units; u++) params[units * width + units + u] = (random() * 2 - 1) * Math.sqrt(6 / (units + 1));
  const step = adam(params.length, options.rate);
  for (let epoch = 0; epoch < options.epochs; epoch++) step(params, gradient(params, xs, examples, width, units, options.decay));
  const at = (from: number, size: number) => Array.from(params.subarray(from, from + size));
  return {
    mean,
    scale,
    hidden: { w: at(0, units * width), b: at(units * width, units) },
    out: { w: at(units * width + units, units), b: at(units * width + 2 * units, 1) },
  };
}

/** Area under the ROC curve of scores against labels (ties count half). */
export function rocAuc(scores: readonly number[], labels: readonly number[]): number {
  const order = scores.map((s, i) => [s, labels[i]!] as const).sort((x, y) => x[0] - y[0]);
  let [rankSum, positives, at] = [0, 0, 0];
  while (at < order.length) {
    let end = at;
    while (end + 1 < order.length && order[end + 1]![0] === order[at]![0]) end++;
    const rank = (at + end) / 2 + 1;
    for (let k = at; k <= end; k++) {
      if (order[k]![1] === 1) {
        rankSum += rank;
        positives++;
      }
    }
    at = end + 1;
  }
  const negatives = order.length - positives;
  return (rankSum - (positives * (positives + 1)) / 2) / Math.max(1, positives * negatives);
}

/** Fits `seeds` models (seeds `options.seed` onwards) and merges them into one wider hidden layer whose logit is their mean logit. */
export function fitEnsemble(examples: readonly Example[], options: FitOptions, seeds: number): Fitted {
  const fits = Array.from({ length: seeds }, (_, s) => fit(examples, { ...options, seed: options.seed + s }));
  return {
    mean: fits[0]!.mean,
    scale: fits[0]!.scale,
    hidden: { w: fits.flatMap((f) => f.hidden.w), b: fits.flatMap((f) => f.hidden.b) },
    out: { w: fits.flatMap((f) => f.out.w.map((w) => w / seeds)), b: [fits.reduce((s, f) => s + f.out.b[0]!, 0) / seeds] },
  };
}

/** A logistic regression on standardised features: p = sigmoid(b + w . (x - mean) / sd). */
export interface Logistic {
  mean: number[];
  sd: number[];
  weights: number[];
  bias: number;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Its probability for one feature row. */
export function predict(model: Logistic, x: readonly number[]): number {
  let z = model.bias;
  for (let j = 0; j < x.length; j++) z += model.weights[j]! * ((x[j]! - model.mean[j]!) / model.sd[j]!);
  return sigmoid(z);
}

/** Full-batch gradient descent on the log loss with a light L2 penalty (deterministic). */
export function trainLogistic(rows: readonly number[][], labels: readonly boolean[], epochs = 2000, rate = 0.5, l2 = 1e-4): Logistic {
  const k = rows[0]!.length;
  const mean = Array.from({ length: k }, (_, j) => rows.reduce((s, r) => s + r[j]!, 0) / rows.length);
  const sd = mean.map((m, j) => Math.sqrt(rows.reduce((s, r) => s + (r[j]! - m) ** 2, 0) / rows.length) || 1);
  const model: Logistic = { mean, sd, weights: new Array<number>(k).fill(0), bias: 0 };
  const z = rows.map((r) => r.map((x, j) => (x - mean[j]!) / sd[j]!));
  for (let epoch = 0; epoch < epochs; epoch++) {
    const grad = new Array<number>(k).fill(0);
    let gb = 0;
    z.forEach((x, i) => {
      const err = sigmoid(model.bias + x.reduce((s, v, j) => s + v * model.weights[j]!, 0)) - (labels[i] ? 1 : 0);
      gb += err;
      for (let j = 0; j < k; j++) grad[j]! += err * x[j]!;
    });
    model.bias -= (rate * gb) / rows.length;
    for (let j = 0; j < k; j++) model.weights[j]! -= rate * (grad[j]! / rows.length + l2 * model.weights[j]!);
  }
  return model;
}

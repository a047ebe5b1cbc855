/**
 * Trains the learned prompt-injection reader (`@svc/guardrails` injection-model.ts) on the
 * **train** split of deepset/prompt-injections only (Apache-2.0; tooling/evals/data/guardrails)
 * and, as more ordinary requests, 2,000 Quora questions of ../shared/data/semcache/qqp-dev.jsonl
 * (questions 2,001 to 4,000 of its distinct first questions; the evaluation's false-flag figure
 * reads the first 2,000): logistic regression over hashed words and word pairs
 * (`injectionFeatures`), its L2 strength chosen by 5-fold cross-validation (log loss out of fold).
 * The test split is never read here. Writes packages/guardrails/src/injection-weights.ts.
 *
 *   pnpm --filter @svc/evals guardrails:train
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { INJECTION_BUCKETS, injectionFeatures } from '@svc/guardrails';

interface Example {
  features: number[];
  label: number;
}

const dataDir = fileURLToPath(new URL('../../data/guardrails/', import.meta.url));
const target = fileURLToPath(new URL('../../../../packages/guardrails/src/injection-weights.ts', import.meta.url));
const examples: Example[] = readFileSync(`${dataDir}prompt-injections-train.jsonl`, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as { text: string; label: number })
  .map(({ text, label }) => ({ features: injectionFeatures(text), label }));
const qqp = fileURLToPath(new URL('../../../../../shared/data/semcache/qqp-dev.jsonl', import.meta.url));
const questions = [...new Set(readFileSync(qqp, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => (JSON.parse(line) as { a: string }).a))];
examples.push(...questions.slice(2000, 4000).map((text) => ({ features: injectionFeatures(text), label: 0 })));

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Full-batch gradient descent with Adam on the mean log loss plus `l2` times the squared weights. */
function fit(rows: readonly Example[], l2: number, steps = 1500): { weights: Float32Array; bias: number } {
  const weights = new Float64Array(INJECTION_BUCKETS);
  let bias = 0;
  const m = new Float64Array(INJECTION_BUCKETS + 1);
  const v = new Float64Array(INJECTION_BUCKETS + 1);
  const rate = 0.05;
  for (let step = 1; step <= steps; step++) {
    const grad = new Float64Array(INJECTION_BUCKETS + 1);
    for (const { features, label } of rows) {
      let z = bias;
      for (const f of features) z += weights[f]!;
      const error = (sigmoid(z) - label) / rows.length;
      for (const f of features) grad[f]! += error;
      grad[INJECTION_BUCKETS]! += error;
    }
    for (let i = 0; i <= INJECTION_BUCKETS; i++) {
      const g = grad[i]! + (i < INJECTION_BUCKETS ? 2 * l2 * weights[i]! : 0);
      m[i] = 0.9 * m[i]! + 0.1 * g;
      v[i] = 0.999 * v[i]! + 0.001 * g * g;
      const delta = (rate * (m[i]! / (1 - 0.9 ** step))) / (Math.sqrt(v[i]! / (1 - 0.999 ** step)) + 1e-8);
      if (i < INJECTION_BUCKETS) weights[i]! -= delta;
      else bias -= delta;
    }
  }
  return { weights: Float32Array.from(weights), bias };
}

const probability = (model: { weights: Float32Array; bias: number }, features: readonly number[]) => sigmoid(features.reduce((z, f) => z + model.weights[f]!, model.bias));

/** Out-of-fold probabilities of every train example (fold = index mod 5). */
function outOfFold(l2: number): number[] {
  const folds = 5;
  const oof = new Array<number>(examples.length);
  for (let fold = 0; fold < folds; fold++) {
    const model = fit(examples.filter((_, i) => i % folds !== fold), l2);
    examples.forEach((example, i) => {
      if (i % folds === fold) oof[i] = probability(model, example.features);
    });
  }
  return oof;
}

const logLoss = (probabilities: readonly number[]) =>
  -probabilities.reduce((sum, p, i) => sum + Math.log(examples[i]!.label === 1 ? Math.max(p, 1e-9) : Math.max(1 - p, 1e-9)), 0) / probabilities.length;

let best = { l2: 0, loss: Number.POSITIVE_INFINITY, oof: [] as number[] };
for (const l2 of [0.00003, 0.0001, 0.0003, 0.001, 0.003, 0.01]) {
  const oof = outOfFold(l2);
  const loss = logLoss(oof);
  const flagged = oof.map((p) => p >= 0.5);
  const tp = flagged.filter((f, i) => f && examples[i]!.label === 1).length;
  const fp = flagged.filter((f, i) => f && examples[i]!.label === 0).length;
  const positives = examples.filter((e) => e.label === 1).length;
  console.log(`l2 ${l2}: out-of-fold log loss ${loss.toFixed(4)}, at 0.5 precision ${(tp / Math.max(1, tp + fp)).toFixed(3)} recall ${(tp / positives).toFixed(3)}`);
  if (loss < best.loss) best = { l2, loss, oof };
}
const model = fit(examples, best.l2);
const encoded = Buffer.from(model.weights.buffer, model.weights.byteOffset, model.weights.byteLength).toString('base64');
writeFileSync(
  target,
  `// Written by \`pnpm --filter @svc/evals guardrails:train\` (tooling/evals/src/guardrails/train-injection.ts): do not edit.
// Logistic weights over injectionFeatures' ${INJECTION_BUCKETS} buckets, trained on the 546-row train split of
// deepset/prompt-injections (Apache-2.0; tooling/evals/data/guardrails/README.md), L2 ${best.l2}
// chosen by 5-fold cross-validation on that split (out-of-fold log loss ${best.loss.toFixed(4)}).
export const INJECTION_WEIGHTS = { bias: ${model.bias.toFixed(6)}, weights: '${encoded}' };
`,
);
console.log(`wrote ${target} (l2 ${best.l2})`);

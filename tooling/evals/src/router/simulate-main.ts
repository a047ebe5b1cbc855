import { parseArgs } from 'node:util';
import { findRouteLlmDir, loadRouteLlmMmlu } from './data.js';
import { type SimulationSettings, simulate } from './simulate.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    judged: { type: 'string', default: '0.05' },
    flip: { type: 'string', default: '0.15' },
    tolerance: { type: 'string', default: '0.05' },
    'judge-price': { type: 'string' },
    mmlu: { type: 'string' },
    seed: { type: 'string', default: '1' },
    task: { type: 'string', default: 'family' },
  },
});

// RouteLLM's MMLU responses (not a reserved set): GPT-4 and Mixtral at RouteLLM's prices (USD per M tokens).
const strong = { id: 'gpt-4-1106-preview', price: 24.7 };
const settings: SimulationSettings = {
  strong,
  weak: { id: 'mistralai/Mixtral-8x7B-Instruct-v0.1', price: 0.24 },
  requests: Number(values.requests),
  judged: Number(values.judged),
  flip: Number(values.flip),
  tolerance: Number(values.tolerance),
  judgePrice: Number(values['judge-price'] ?? strong.price),
  every: 2000,
  seed: Number(values.seed),
  task: values.task === 'subject' ? 'subject' : 'family',
};
const items = loadRouteLlmMmlu(findRouteLlmDir(process.cwd(), values.mmlu), new Map());
const result = simulate(items, settings);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
console.log(`stream of ${settings.requests} RouteLLM MMLU requests, ${pct(settings.judged)} judged, ${pct(settings.flip)} of verdicts flipped, tolerance ${settings.tolerance}, task kind ${settings.task}, judge price ${settings.judgePrice} per call x2`);
console.log(`accuracy on the stream: strong ${pct(result.strongAccuracy)}, weak ${pct(result.weakAccuracy)}; always-weak quality ${pct(result.weakAccuracy / result.strongAccuracy)} at cost ${pct(settings.weak.price / strong.price)}`);
console.log(`per-task oracle: quality ${pct(result.oracle.quality)}, cost ${pct(result.oracle.cost)} of the strong model's`);
console.log('| requests | quality vs strong | cost vs strong (served + shadow + judge) | weak share |');
console.log('|---|---|---|---|');
for (const c of result.checkpoints) console.log(`| ${c.requests} | ${pct(c.quality)} | ${pct(c.cost)} | ${pct(c.weakShare)} |`);

import { parseArgs } from 'node:util';
import { type Item, findRouteLlmDir, loadRouteLlmMmlu } from './data.js';
import { loadLlmRouter } from './llmrouter.js';
import { type SimulationSettings, simulate } from './simulate.js';
import { seedRange, summariseSeeds } from './simulate-seeds.js';
import { defaultLlmRouter } from './sources.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    judged: { type: 'string', default: '0.05' },
    flip: { type: 'string', default: '0.15' },
    tolerance: { type: 'string', default: '0.05' },
    'judge-price': { type: 'string' },
    mmlu: { type: 'string' },
    seed: { type: 'string', default: '1' },
    seeds: { type: 'string' },
    task: { type: 'string', default: 'family' },
    source: { type: 'string', default: 'routellm-mmlu' },
    strong: { type: 'string' },
    weak: { type: 'string' },
    'strong-price': { type: 'string' },
    'weak-price': { type: 'string' },
    llmrouter: { type: 'string' },
    sampler: { type: 'string', default: 'uniform' },
    'judge-error': { type: 'string', default: '0' },
    bound: { type: 'string', default: 'betting' },
    incumbent: { type: 'string', default: 'router' },
    'up-alpha': { type: 'string' },
    'no-hold': { type: 'boolean', default: false },
    'cautious-start': { type: 'boolean', default: false },
    feed: { type: 'string', default: 'routed' },
    revisit: { type: 'string', default: '0' },
    gate: { type: 'boolean', default: false },
  },
});

/**
 * A synthetic even kind (`--source even-kind --task subject`): one subject on which the two models
 * are as good (45% both right, 20% both wrong, 17.5% each alone: a win rate of 0.5 with 65% ties),
 * to measure what moves up cost where nothing is gained (a move up on it is a false one).
 */
function evenKind(): Item[] {
  const [both, neither, strongOnly] = [18, 8, 7]; // of every 40 prompts; the other 7 the weak model alone
  return Array.from({ length: 2000 }, (_, i) => {
    const at = i % 40;
    const [strongRight, weakRight] = at < both ? [true, true] : at < both + neither ? [false, false] : at < both + neither + strongOnly ? [true, false] : [false, true];
    return { source: 'even-kind', group: 'even', subject: 'even', prompt: `even prompt ${i}`, correct: { strong: strongRight, weak: weakRight } };
  });
}

/**
 * The outcome data and its default pair, USD per M tokens. RouteLLM's MMLU: GPT-4 and Mixtral at
 * RouteLLM's prices. LLMRouter (9 open models on 11 tasks, reserved tasks dropped): Llama 3.1
 * Nemotron 51B, the best on average, and Llama 3.1 8B, which matches it on several tasks, at
 * serverless list prices of their size classes (70B-class 0.88, 8B 0.18; Together AI, 2025).
 */
const sources: Record<string, { load: () => Item[]; strong: { id: string; price: number }; weak: { id: string; price: number } }> = {
  'routellm-mmlu': {
    load: () => loadRouteLlmMmlu(findRouteLlmDir(process.cwd(), values.mmlu), new Map()),
    strong: { id: 'gpt-4-1106-preview', price: 24.7 },
    weak: { id: 'mistralai/Mixtral-8x7B-Instruct-v0.1', price: 0.24 },
  },
  llmrouter: {
    load: () => loadLlmRouter(values.llmrouter ?? defaultLlmRouter),
    strong: { id: 'llama-3.1-nemotron-51b-instruct', price: 0.88 },
    weak: { id: 'llama-3.1-8b-instruct', price: 0.18 },
  },
  'even-kind': { load: evenKind, strong: { id: 'strong', price: 24.7 }, weak: { id: 'weak', price: 0.24 } },
};
/** `value` when it is one of `allowed`; a typo is refused, never read as the default. */
function choiceOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  const found = allowed.find((choice) => choice === value);
  if (!found) throw new Error(`--${flag} must be one of ${allowed.join(', ')}`);
  return found;
}
const source = sources[values.source];
if (!source) throw new Error(`--source must be one of ${Object.keys(sources).join(', ')}`);

const strong = { id: values.strong ?? source.strong.id, price: Number(values['strong-price'] ?? source.strong.price) };
const settings: SimulationSettings = {
  strong,
  weak: { id: values.weak ?? source.weak.id, price: Number(values['weak-price'] ?? source.weak.price) },
  requests: Number(values.requests),
  judged: Number(values.judged),
  flip: Number(values.flip),
  tolerance: Number(values.tolerance),
  judgePrice: Number(values['judge-price'] ?? strong.price),
  every: 2000,
  seed: Number(values.seed),
  task: choiceOf('task', values.task, ['family', 'subject'] as const),
  sampler: choiceOf('sampler', values.sampler, ['uniform', 'unsure', 'ordered'] as const),
  judgeError: Number(values['judge-error']),
  bound: choiceOf('bound', values.bound, ['betting', 'sequence', 'wilson'] as const),
  upAlpha: values['up-alpha'] === undefined ? undefined : Number(values['up-alpha']),
  holdUp: !values['no-hold'],
  cautiousStart: values['cautious-start'],
  incumbent: values.incumbent === 'strong' || values.incumbent === 'router' ? values.incumbent : Number(values.incumbent),
  feed: choiceOf('feed', values.feed, ['routed', 'served'] as const),
  revisit: Number(values.revisit),
  gate: values.gate,
};
const items = source.load().filter((item) => item.correct[settings.strong.id] !== undefined && item.correct[settings.weak.id] !== undefined);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
if (values.seeds !== undefined) {
  const seeds = seedRange(values.seeds);
  const results = seeds.map((seed) => simulate(items, { ...settings, seed }));
  const sum = summariseSeeds(results);
  console.log(`${values.source} by ${settings.task}, sampler ${settings.sampler}, incumbent ${settings.incumbent}, judge error ${settings.judgeError}, up alpha ${settings.upAlpha ?? 'default'}, hold up ${settings.holdUp}, cautious start ${settings.cautiousStart}, feed ${settings.feed}, revisit ${settings.revisit}, gate ${settings.gate}, seeds ${values.seeds}`);
  console.log('| seed | quality at first checkpoint | min | quality at last | cost at last | weak share at last | judged |');
  console.log('|---|---|---|---|---|---|---|');
  results.forEach((r, i) => {
    const last = r.checkpoints.at(-1)!;
    console.log(`| ${seeds[i]} | ${pct(r.checkpoints[0]!.quality)} | ${pct(Math.min(...r.checkpoints.map((c) => c.quality)))} | ${pct(last.quality)} | ${pct(last.cost)} | ${pct(last.weakShare)} | ${pct(last.judgedShare)} |`);
  });
  console.log(`summary over ${sum.runs} runs: mean quality at last ${(100 * sum.meanQuality).toFixed(2)}%, runs >= 98%: ${sum.atGoal}/${sum.runs}, mean min ${pct(sum.meanMin)} (lowest ${pct(sum.lowestMin)}), mean quality at first checkpoint ${pct(sum.meanFirst)}, mean cost at last ${pct(sum.meanCost)}, mean weak share at last ${pct(sum.meanWeakShare)}; strong on > 6% in ${sum.strongOver6} runs (lowest weak share ${pct(sum.lowestWeakShare)}), judged at most ${pct(sum.maxJudged)}`);
} else {
  const result = simulate(items, settings);
  console.log(`stream of ${settings.requests} ${values.source} requests (${settings.strong.id} vs ${settings.weak.id}), ${pct(settings.judged)} judged, ${pct(settings.flip)} of verdicts flipped, tolerance ${settings.tolerance}, task kind ${settings.task}, sampler ${settings.sampler}, judge error assumed ${settings.judgeError}, bound ${settings.bound}, incumbent ${settings.incumbent}, judge price ${settings.judgePrice} per call x2`);
  console.log(`accuracy on the stream: strong ${pct(result.strongAccuracy)}, weak ${pct(result.weakAccuracy)}; always-weak quality ${pct(result.weakAccuracy / result.strongAccuracy)} at cost ${pct(settings.weak.price / strong.price)}`);
  console.log(`incumbent: ${settings.incumbent === 'strong' ? 'always the strong model' : `${settings.incumbent === 'router' ? "the shipped router's choice" : 'drawn per prompt'}, weak on ${pct(result.incumbentWeakShare)} of the stream`}`);
  console.log(`per-task oracle: quality ${pct(result.oracle.quality)}, cost ${pct(result.oracle.cost)} of the strong model's`);
  console.log('| requests | quality vs strong | cost vs strong (served + shadow + judge) | weak share | judged |');
  console.log('|---|---|---|---|---|');
  for (const c of result.checkpoints) console.log(`| ${c.requests} | ${pct(c.quality)} | ${pct(c.cost)} | ${pct(c.weakShare)} | ${pct(c.judgedShare)} |`);
}

/**
 * What any router could reach on the simulation's outcome data (docs/routing.md, "What this data
 * allows"): the per-task oracle and the least cost at a quality floor, by the router's task family,
 * by the data's subject, and per prompt (knowing every answer: a bound no router reaches), before
 * judging is paid for. Each labelled prompt counts once (the simulation draws them uniformly).
 * Then the held-out rows (`reachable-held-out.ts`): family, subject and embedding clusters of the
 * prompts (`--ks`), decided on one half and applied to the other, and learned from judged pairs.
 *
 *   pnpm --filter @svc/evals router:reachable [--source routellm-mmlu|llmrouter] [--floor 0.98] [--weak-cost c] [--ks 8,16,...] [--seeds 20]
 */
import { parseArgs } from 'node:util';
import { createCatalog } from '@svc/catalog';
import { createRouter } from '@svc/router';
import { type Item, findRouteLlmDir, loadRouteLlmMmlu } from './data.js';
import { loadLlmRouter } from './llmrouter.js';
import { closeEncoder, embedItems } from './embed.js';
import { printHeldOut } from './reachable-held-out.js';
import { reach, unitsOf } from './reachable.js';
import { defaultLlmRouter } from './sources.js';

const { values } = parseArgs({
  options: {
    source: { type: 'string', default: 'routellm-mmlu' },
    floor: { type: 'string', default: '0.98' },
    'weak-cost': { type: 'string' },
    mmlu: { type: 'string' },
    llmrouter: { type: 'string' },
    ks: { type: 'string', default: '8,16,32,64,128,256' },
    seeds: { type: 'string', default: '20' },
  },
});

/**
 * The pairs of the simulations and the cheaper model's cost per request over the strong one's:
 * RouteLLM's MMLU as answered in the live run (gpt-5.4-nano / gpt-5.4 at catalog prices: 8.1% on
 * its streams); LLMRouter's pair at the library simulation's prices (0.18 / 0.88).
 */
const sources: Record<string, { load: () => Item[]; cache: string; strong: string; weak: string; weakCost: number }> = {
  'routellm-mmlu': { cache: 'routellm-mmlu-all', load: () => loadRouteLlmMmlu(findRouteLlmDir(process.cwd(), values.mmlu), new Map()), strong: 'gpt-4-1106-preview', weak: 'mistralai/Mixtral-8x7B-Instruct-v0.1', weakCost: 0.081 },
  llmrouter: { cache: 'llmrouter', load: () => loadLlmRouter(values.llmrouter ?? defaultLlmRouter), strong: 'llama-3.1-nemotron-51b-instruct', weak: 'llama-3.1-8b-instruct', weakCost: 0.18 / 0.88 },
};
const source = sources[values.source];
if (!source) throw new Error(`--source must be one of ${Object.keys(sources).join(', ')}`);
const weakCost = Number(values['weak-cost'] ?? source.weakCost);
const floor = Number(values.floor);
const items = source.load().filter((item) => item.correct[source.strong] !== undefined && item.correct[source.weak] !== undefined);
const router = createRouter({ catalog: createCatalog([]), quality: false, embedder: false, learner: false });
const familyOf = (item: Item) => router.classify({ model: 'svc/auto', messages: [{ role: 'user', content: item.prompt }], stream: false, n: 1, includeUsage: false }).taskFamily;
const outcome = (item: Item) => ({ strong: item.correct[source.strong] === true, weak: item.correct[source.weak] === true, strongCost: 1, weakCost });
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

const strongRight = items.filter((i) => i.correct[source.strong] === true).length;
const weakRight = items.filter((i) => i.correct[source.weak] === true).length;
console.log(`${items.length} ${values.source} prompts (${source.strong} vs ${source.weak}, the cheaper at ${pct(weakCost)} of the cost); always-weak: quality ${pct(weakRight / strongRight)} at ${pct(weakCost)}.`);
console.log(`\n| unit | kinds | per-unit oracle (quality, cost) | least cost at quality >= ${pct(floor)} |`);
console.log('|---|---|---|---|');
for (const [name, unitOf] of [
  ['task family (the router\'s)', familyOf],
  ['subject (the data\'s)', (item: Item) => item.subject],
  ['prompt (every answer known)', (_: Item, index: number) => String(index)],
] as const) {
  const units = unitsOf(items, unitOf, outcome);
  const { oracle, atFloor } = reach(units, floor);
  console.log(`| ${name} | ${units.length} | ${pct(oracle.quality)}, ${pct(oracle.cost)} | ${pct(atFloor.cost)} (quality ${pct(atFloor.quality)}) |`);
}

// 5% of a 20,000-request stream judged, 15% of verdicts flipped, ~4.5 strong-request costs per judged request (docs/routing.md).
const vectors = await embedItems(source.cache, items);
await closeEncoder();
printHeldOut({
  outcomes: items.map((item) => ({ strong: item.correct[source.strong] === true, weak: item.correct[source.weak] === true })),
  vectors,
  family: items.map(familyOf),
  subject: items.map((item) => item.subject),
  weakCost,
  floor,
  ks: values.ks.split(',').map(Number),
  judged: { pairs: 1000, flip: 0.15, share: 0.05, costEach: 4.5, seeds: Number(values.seeds) },
});

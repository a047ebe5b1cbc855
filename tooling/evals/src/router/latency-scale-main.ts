/**
 * The router's own first choice at the start of the live simulation's stream (docs/routing.md,
 * "The latency term's scale"): the first `--requests` RouteLLM MMLU prompts of `router:simulate-live`'s
 * seeded draw, routed by `svc/auto` between its catalog pair with the gateway's sentence embedding,
 * under four latency figures: none live (the tiers' defaults), the weak model 10% faster, the
 * strong one 10% faster, both equal. Prints the weak share and the mean score gap (strong - weak).
 * No learning, no judging: the base router the per-task learner starts from.
 *
 *   pnpm --filter @svc/evals router:latency-scale [--seed 5] [--requests 2000] [--text-only]
 */
import { parseArgs } from 'node:util';
import { createCatalog } from '@svc/catalog';
import { createRouter } from '@svc/router';
import { findRouteLlmDir, loadRouteLlmMmlu } from './data.js';
import { closeEncoder, sharedEncoder } from './embed.js';
import { seeded } from './metrics.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '5' },
    requests: { type: 'string', default: '2000' },
    'text-only': { type: 'boolean', default: false },
    mmlu: { type: 'string' },
  },
});

const strong = 'openai/gpt-5.4';
const weak = 'openai/gpt-5.4-nano';
const scenarios: { name: string; latency: Record<string, number> }[] = [
  { name: 'no live figures (tier defaults 1500 / 200 ms)', latency: {} },
  { name: 'live, weak 10% faster (220 / 200 ms)', latency: { [strong]: 220, [weak]: 200 } },
  { name: 'live, strong 10% faster (200 / 220 ms)', latency: { [strong]: 200, [weak]: 220 } },
  { name: 'live, equal (200 / 200 ms)', latency: { [strong]: 200, [weak]: 200 } },
];

const items = loadRouteLlmMmlu(findRouteLlmDir(process.cwd(), values.mmlu), new Map());
const next = seeded(Number(values.seed));
const prompts = Array.from({ length: Number(values.requests) }, () => items[Math.floor(next() * items.length)]!.prompt);
const unique = [...new Set(prompts)];
const vectors = values['text-only'] ? [] : await sharedEncoder().embedMany(unique);
await closeEncoder();
const vectorOf = new Map(unique.map((p, i) => [p, vectors[i]]));
const router = createRouter({ catalog: createCatalog(), embedder: false, learner: false });

console.log(`| seed ${values.seed}, first ${prompts.length} requests${values['text-only'] ? ', text signals only' : ', with the embedding'} | weak share | mean score gap, strong - weak |`);
console.log('|---|---|---|');
for (const { name, latency } of scenarios) {
  let weakFirst = 0;
  let gap = 0;
  for (const prompt of prompts) {
    const embedding = vectorOf.get(prompt);
    const request = { model: 'svc/auto', messages: [{ role: 'user' as const, content: prompt }], stream: false, n: 1, includeUsage: false };
    const decision = router.route(request, { candidates: [strong, weak], latencyMs: (id) => latency[id], ...(embedding ? { embedding } : {}) });
    const score = (id: string) => decision.candidates.find((c) => c.id === id)?.score ?? 0;
    weakFirst += Number(decision.model.id === weak);
    gap += score(strong) - score(weak);
  }
  console.log(`| ${name} | ${((100 * weakFirst) / prompts.length).toFixed(1)}% | ${(gap / prompts.length).toFixed(3)} |`);
}

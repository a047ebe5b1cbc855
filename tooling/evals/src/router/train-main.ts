/**
 * Trains the quality model shipped in `@svc/router` on every labelled prompt of every source and
 * writes it to `packages/router/src/quality/shipped-model.ts`. Run `router:prepare` first.
 *
 *   pnpm --filter @svc/evals router:train [--steps 250] [--group-effects] [--balance] [--only routellm-mmlu,llmrouter]
 */
import { parseArgs } from 'node:util';
import { trainDomain } from './domain.js';
import { closeEncoder } from './embed.js';
import { writeShippedModel } from './shipped-file.js';
import { loadSources } from './sources.js';
import { toExamples, trainQualityModel } from './train.js';

const { values } = parseArgs({ options: { steps: { type: 'string', default: '250' }, l2: { type: 'string' }, 'group-effects': { type: 'boolean', default: false }, balance: { type: 'boolean', default: false }, mmlu: { type: 'string' }, 'mmlu-pro': { type: 'string' }, llmrouter: { type: 'string' }, only: { type: 'string' } } });
const sources = await loadSources({ mmlu: values.mmlu, mmluPro: values['mmlu-pro'], llmRouter: values.llmrouter, embed: true, only: values.only?.split(',') });
await closeEncoder();
const index = new Map<string, number>();
const groups = new Map<string, number>();
const examples = sources.flatMap((s) => toExamples(s.items, s.vectors, index, groups));
const trainedOn = sources.map((s) => `${s.name} (${s.items.length} prompts)`).join(', ');
const model = trainQualityModel(examples, index, `${trainedOn}; ${index.size} models; ${values.steps} full-batch Adam steps${values['group-effects'] ? ', group effects' : ''}`, {
  steps: Number(values.steps),
  groupEffects: values['group-effects'],
  balanceSources: values.balance,
  ...(values.l2 ? { l2: Number(values.l2) } : {}),
});
// The training prompts' region, so the router reads prompts unlike them as the prior (docs/routing.md).
const out = writeShippedModel({ ...model, domain: trainDomain(sources.flatMap((s) => s.vectors)) });
console.log(`wrote ${out}: ${trainedOn}, ${index.size} models`);

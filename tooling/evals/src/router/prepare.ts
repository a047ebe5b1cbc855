/** Loads every router data source and embeds its prompts once (cached in `SVC_ROUTER_CACHE`, default /tmp/svc-router). */
import { parseArgs } from 'node:util';
import { closeEncoder } from './embed.js';
import { loadSources } from './sources.js';

const { values } = parseArgs({ options: { mmlu: { type: 'string' }, 'mmlu-pro': { type: 'string' }, llmrouter: { type: 'string' }, only: { type: 'string' } } });
const sources = await loadSources({ mmlu: values.mmlu, mmluPro: values['mmlu-pro'], llmRouter: values.llmrouter, embed: true, only: values.only?.split(',') });
for (const s of sources) console.log(`${s.name}: ${s.items.length} prompts, ${Object.keys(s.items[0]!.correct).length} models`);
await closeEncoder();

/**
 * How the clearly-nearest rule's thresholds were chosen (issue #35, seventh pass;
 * `packages/memory/src/recall-nearest.ts`), on tuning data only: the tuning forms of the tuning
 * attributes and of the dev attributes, the recall eval's calibration questions, and the 1,000 dev
 * unrelated prompts asked of each set of users. Held-out attributes and forms are never asked.
 * For each floor and lead, prints the questions the rule would add (right value / wrong fact) and
 * the unrelated prompts it would inject into: for any request that refers to its user (a lead alone), state questions, and own-word requests.
 *
 *   pnpm --filter @svc/evals memory:nearest [--data ../shared/data/semcache]
 */
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { asksForState, type MemoryStore, refersToUser } from '@svc/memory';
import { loadUnrelated } from './dataset.js';
import { probeTuningData } from './tuning-probes.js';

const { values } = parseArgs({ options: { data: { type: 'string', default: '../../../shared/data/semcache' } } });
const embedder = createSentenceEncoder({ cacheSize: 0 });
const unrelated = loadUnrelated(values.data).dev;

/** One prompt that got nothing from the shipped floors: its user's two best facts and whether the first is the right one. */
interface Probe {
  related: boolean;
  self: boolean;
  state: boolean;
  first: number;
  second: number;
  own: boolean;
  right: boolean;
}
const probes: Probe[] = [];

async function probe(memory: MemoryStore, scope: { orgId: string; subject: string }, prompt: string, right: ((text: string) => boolean) | undefined) {
  const rules = memory.floors.nearest;
  // The floors without the rule (an explicit floor turns it off): what it could add to.
  const passing = await memory.recall(scope, prompt, { minSimilarity: refersToUser(prompt) ? memory.floors.self : memory.floors.other });
  if (rules === undefined || passing.length > 0) return;
  const [a, b] = await memory.recall(scope, prompt, { minSimilarity: -5, limit: 2, features: true });
  if (!a) return;
  const own = (a.features?.values[7] ?? 0) === 1;
  probes.push({ related: right !== undefined, self: refersToUser(prompt), state: asksForState(prompt), first: a.score, second: b?.score ?? 0, own, right: right?.(a.text) ?? false });
}

await probeTuningData(embedder, [['updates-tuning.jsonl', 'update-questions-tuning.jsonl'], ['updates.jsonl', 'update-questions.jsonl']], unrelated, probe);

console.log(`${probes.filter((p) => p.related).length} tuning questions and ${probes.filter((p) => !p.related).length} dev unrelated prompts get nothing from the floors`);
const kinds = { lead: (p: Probe) => p.self, state: (p: Probe) => p.state, own: (p: Probe) => p.own && !p.state };
for (const [kind, of] of Object.entries(kinds)) {
  for (const floor of [0.28, 0.3, 0.32, 0.35, 0.36]) {
    for (const ahead of [0.08, 0.1, 0.12, 0.15, 0.2]) {
      const hit = probes.filter((p) => of(p) && p.first >= floor && p.first - p.second >= ahead);
      const right = hit.filter((p) => p.related && p.right).length;
      const wrong = hit.filter((p) => p.related && !p.right).length;
      console.log(`${kind.padEnd(6)} floor ${floor} ahead ${ahead}: +${right} right, ${wrong} wrong fact, ${hit.filter((p) => !p.related).length} unrelated prompts`);
    }
  }
}
await embedder.close?.();

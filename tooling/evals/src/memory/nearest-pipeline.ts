/**
 * The nearest-fact rules' settings judged through the store's own `recall` (issue #35, sixteenth
 * pass), on dev data only: the tuning forms of the three attribute files' dev attributes and the
 * recall eval's calibration questions (`probeTuningData`), against the 1,000 dev unrelated prompts
 * and `--large N` more that refer to their user (`loadSelfReferringDev`, qqp-dev lines 2000 on),
 * asked of every set of users. A request that gets something with the rules off is counted once (no
 * rule acts on it); one that gets nothing is asked again under each setting of `SETTINGS`
 * (`floors.nearest` swapped in place, which only an evaluation does). Prints one JSON line per
 * setting: questions given their value / another fact, unrelated prompts injected (dev / large;
 * the recall eval's users / the update users). Held-out attributes and forms are never asked.
 *
 *   pnpm --filter @svc/evals memory:nearest-pipeline [--large 8000]
 */
import { parseArgs } from 'node:util';
import { type MemoryStore, type NearestRules, refersToUser } from '@svc/memory';
import { cachedEncoder } from './cached-embedder.js';
import { loadSelfReferringDev, loadUnrelated } from './dataset.js';
import { probeTuningData } from './tuning-probes.js';

const { values } = parseArgs({ options: { data: { type: 'string', default: '/work/shared/data/semcache' }, large: { type: 'string', default: '8000' } } });
const embedder = cachedEncoder();
const dev = loadUnrelated(values.data).dev;
const devSet = new Set(dev);
const unrelated = [...dev, ...loadSelfReferringDev(values.data, Number(values.large), refersToUser)];

const state = { floor: 0.35, ahead: 0.1 };
const phrase = (floor: number, ahead: number, cos: number, cosAhead: number) => ({ state, phrase: { floor, ahead, phrase: cos, phraseAhead: cosAhead } });
const SETTINGS: Record<string, NearestRules | undefined> = {
  off: undefined,
  'state 0.35/0.1 (shipped before the sixteenth pass)': { state },
  'state 0.32/0.1': { state: { floor: 0.32, ahead: 0.1 } },
  'state 0.3/0.1': { state: { floor: 0.3, ahead: 0.1 } },
  'state 0.35/0.08': { state: { floor: 0.35, ahead: 0.08 } },
  'state 0.32/0.08': { state: { floor: 0.32, ahead: 0.08 } },
  'phrase 0.3/0.15 0.3/0.05': phrase(0.3, 0.15, 0.3, 0.05),
  'phrase 0.3/0.2 0.4/0.1': phrase(0.3, 0.2, 0.4, 0.1),
  'phrase 0.33/0.2 0.45/0.1': phrase(0.33, 0.2, 0.45, 0.1),
  'phrase 0.3/0.25 0.35/0.1': phrase(0.3, 0.25, 0.35, 0.1),
  'phrase 0.3/0.25 0.45/0.15': phrase(0.3, 0.25, 0.45, 0.15),
  'phrase 0.36/0.25 0.4/0.1': phrase(0.36, 0.25, 0.4, 0.1),
};
const counts = new Map<string, Map<string, number>>();
const bump = (setting: string, key: string) => {
  const of = counts.get(setting) ?? new Map<string, number>();
  of.set(key, (of.get(key) ?? 0) + 1);
  counts.set(setting, of);
};

/** What one answer was: a question given its value or another fact, an unrelated prompt injected. */
function outcome(texts: readonly string[], right: ((text: string) => boolean) | undefined, where: string): string | undefined {
  if (right !== undefined) return texts.some(right) ? 'right' : texts.length > 0 ? 'wrong' : undefined;
  return texts.length > 0 ? `injected ${where}` : undefined;
}

async function probe(memory: MemoryStore, scope: { orgId: string; subject: string }, prompt: string, right: ((text: string) => boolean) | undefined, set: string) {
  const floors = memory.floors as { nearest?: NearestRules };
  const shipped = floors.nearest;
  const where = `${devSet.has(prompt) ? 'dev' : 'large'} ${set === 'facts' ? 'facts' : 'updates'}`;
  floors.nearest = undefined;
  const base = outcome((await memory.recall(scope, prompt)).map((m) => m.text), right, where);
  for (const [name, rules] of Object.entries(SETTINGS)) {
    if (base !== undefined || rules === undefined) {
      if (base !== undefined) bump(name, base);
      continue;
    }
    floors.nearest = rules;
    const got = outcome((await memory.recall(scope, prompt)).map((m) => m.text), right, where);
    if (got !== undefined) bump(name, got);
  }
  floors.nearest = shipped;
  if (right !== undefined) bump('questions', set);
}

const files = [['updates-tuning-2.jsonl', 'update-questions-tuning-2.jsonl'], ['updates-tuning.jsonl', 'update-questions-tuning.jsonl'], ['updates.jsonl', 'update-questions.jsonl']] as const;
await probeTuningData(embedder, files, unrelated, probe);
console.log(`unrelated prompts: ${dev.length} dev + ${unrelated.length - dev.length} large, asked of each of 4 sets of users`);
for (const [name, of] of counts) console.log(JSON.stringify({ setting: name, ...Object.fromEntries(of) }));
await embedder.close();

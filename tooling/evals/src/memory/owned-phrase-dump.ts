/**
 * How the owned-phrase rule's thresholds were chosen (issue #35, fifteenth pass;
 * `packages/memory/src/recall-owned.ts`), on dev data only: every tuning question and dev
 * unrelated prompt that gets nothing from recall, one JSON line each, with its user's best facts
 * by relevance (`first`, `second`: as recall returns them with no floor, after its correction
 * rules) and by the cosine of the phrases the request names the user's own thing with (`p1`,
 * `p2`; "my supermarket", "the airline I fly"). Tuning forms of the three tuning files' dev
 * attributes, the recall eval's calibration questions, 3 x 1,000 dev unrelated prompts; held-out
 * attributes and forms are never asked. Run it with the rule off (`phrase` removed from the
 * calibration) to see what it could add; the grid over the lines was read with a few lines of
 * Python (docs/memory.md, fifteenth pass).
 *
 * `--large N` adds N more unrelated prompts that refer to their user (`loadSelfReferringDev`: qqp-dev
 * lines 2000 onward; sixteenth pass), probed the same way after the 1,000 dev prompts.
 *
 *   pnpm --filter @svc/evals memory:owned-phrase [--large 6000] > probes.jsonl
 */
import { parseArgs } from 'node:util';
import { asksForState, type MemoryStore, ownedPhrases, refersToUser } from '@svc/memory';
import { cachedEncoder } from './cached-embedder.js';
import { loadSelfReferringDev, loadUnrelated } from './dataset.js';
import { probeTuningData } from './tuning-probes.js';

const embedder = cachedEncoder();
const { values } = parseArgs({ options: { data: { type: 'string', default: '/work/shared/data/semcache' }, large: { type: 'string', default: '0' } } });
const unrelated = [...loadUnrelated(values.data).dev, ...loadSelfReferringDev(values.data, Number(values.large), refersToUser)];
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

async function probe(memory: MemoryStore, scope: { orgId: string; subject: string }, prompt: string, right: ((text: string) => boolean) | undefined, set: string) {
  if ((await memory.recall(scope, prompt)).length > 0) return;
  const all = await memory.recall(scope, prompt, { minSimilarity: -5, limit: 60 });
  if (all.length === 0) return;
  const phrases = ownedPhrases(prompt);
  const facts = all.map((m) => m.text);
  const fv = await embedder.embed(facts);
  const pv = await embedder.embed(phrases);
  const byPhrase = facts.map((_, i) => Math.max(-1, ...pv.map((p) => dot(p, fv[i]!)))).map((cos, i) => ({ cos, i })).sort((a, b) => b.cos - a.cos);
  const row = {
    set,
    related: right !== undefined,
    prompt,
    self: refersToUser(prompt),
    state: asksForState(prompt),
    first: all[0]!.score,
    second: all[1]?.score ?? 0,
    firstRight: right?.(all[0]!.text) ?? false,
    anyRight: right ? all.some((m) => right(m.text)) : false,
    phrases,
    p1: byPhrase[0]?.cos ?? -1,
    p2: byPhrase[1]?.cos ?? -1,
    p1Rel: all[byPhrase[0]?.i ?? 0]!.score,
    p1Right: right?.(all[byPhrase[0]?.i ?? 0]!.text) ?? false,
    p1IsFirst: byPhrase[0]?.i === 0,
    p1Text: all[byPhrase[0]?.i ?? 0]!.text,
  };
  console.log(JSON.stringify(row));
}

const files = [['updates-tuning-2.jsonl', 'update-questions-tuning-2.jsonl'], ['updates-tuning.jsonl', 'update-questions-tuning.jsonl'], ['updates.jsonl', 'update-questions.jsonl']] as const;
await probeTuningData(embedder, files, unrelated, probe);
await embedder.close();

/**
 * Corrections left unlinked, on tuning data only: for every updated attribute whose old value is
 * still in force after session 2, the old fact, the correction, and where the old
 * fact ranks among the user's facts of the same holder by the subject score of `subject-links.ts`
 * (statement cosine plus frame cosine), beside the best other fact.
 * Prints examples only for `dev` attributes (the held-out ones are counted, never shown).
 *
 *   pnpm --filter @svc/evals memory:unlinked [--attributes updates-tuning.jsonl]
 */
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { endUserSubject, holderOf, statementCore, subjectFrame } from '@svc/memory';
import { loadFacts } from './dataset.js';
import { loadUpdateAttributes, updateUsers } from './updates-data.js';
import { asserts, replayUsers } from './updates-eval.js';

const { values } = parseArgs({ options: { users: { type: 'string', default: '48' }, attributes: { type: 'string', default: 'updates-tuning.jsonl' } } });
const embedder = createSentenceEncoder({ cacheSize: 0 });
const users = updateUsers(loadFacts(), loadUpdateAttributes(values.attributes), { count: Number(values.users), perUser: 6 });
const run = await replayUsers(embedder, users, true);
const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
let unlinked = 0;
let heldOut = 0;
for (const [u, user] of users.entries()) {
  const active = (await run.memory.list('org-updates', { subject: endUserSubject('org-updates', `user-${u}`), limit: 1_000 })).map((m) => m.text);
  for (const held of user.attributes) {
    if (held.fate !== 'update') continue;
    const olds = active.filter((t) => asserts(t, held.first));
    const fresh = active.find((t) => asserts(t, held.second));
    if (olds.length === 0 || fresh === undefined) continue;
    if (held.attribute.split !== 'dev') {
      heldOut++;
      continue;
    }
    unlinked++;
    const same = active.filter((t) => t !== fresh && holderOf(t) === holderOf(fresh));
    const vectors = await embedder.embed([fresh, ...same].map(statementCore));
    const frames = await embedder.embed([fresh, ...same].map(subjectFrame));
    const ranked = same.map((t, i) => ({ t, s: dot(vectors[0]!, vectors[i + 1]!) + dot(frames[0]!, frames[i + 1]!) })).sort((a, b) => b.s - a.s);
    const at = ranked.findIndex((r) => olds.includes(r.t));
    const old = ranked[at];
    const other = ranked.find((r) => r.t !== old?.t);
    const shown = old ? `"${old.t}" subject ${old.s.toFixed(2)} rank ${at + 1}` : `${JSON.stringify(olds)} (another holder)`;
    console.log(`${held.attribute.attribute}: "${fresh}" <- ${shown}; best other "${other?.t}" ${other?.s.toFixed(2)}`);
  }
}
console.log(`unlinked dev corrections: ${unlinked}; held-out (not shown): ${heldOut}`);
await embedder.close?.();

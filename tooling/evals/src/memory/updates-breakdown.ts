/**
 * The knowledge-update misses and stale answers of the tuning split, sorted into classes and
 * counted (per fact, as `memory:updates` counts them): tuning forms of the dev attributes only,
 * never a held-out attribute or form. Classes: the new fact not in force (split or extraction, or
 * superseded by a later fact); the correction not linked (the old fact still in force) and the old
 * fact given instead or beside it, or nothing given; the correction linked but the question not
 * recalling the new fact (the user's nearest fact by cosine under the floor, or behind another fact).
 *
 *   pnpm --filter @svc/evals memory:breakdown [--attributes updates-tuning.jsonl --questions update-questions-tuning.jsonl] [--verbose]
 */
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { endUserSubject } from '@svc/memory';
import { loadFacts } from './dataset.js';
import { attributeFacts } from './stated-facts.js';
import { loadAttributeQuestions, loadUpdateAttributes, updateUsers } from './updates-data.js';
import { replayUsers, shippedRecall } from './updates-eval.js';

const { values } = parseArgs({ options: { attributes: { type: 'string', default: 'updates.jsonl' }, questions: { type: 'string', default: 'update-questions.jsonl' }, verbose: { type: 'boolean', default: false } } });
const embedder = createSentenceEncoder({ cacheSize: 0 });
const users = updateUsers(loadFacts(), loadUpdateAttributes(values.attributes), { count: 48, perUser: 6 });
const questions = loadAttributeQuestions(values.questions);
const run = await replayUsers(embedder, users, true);
const ORG = 'org-updates';
const counts = new Map<string, number>();
const bump = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** The class of one question's answer, from what is in force, what was given and where the new fact ranks by cosine. */
function classOf(state: { oldInForce: boolean; newInForce: boolean; stale: boolean; current: boolean; newRank: number }): string[] {
  const out: string[] = [];
  if (state.stale) out.push(`stale: ${state.oldInForce ? 'correction not linked' : 'old fact given though superseded'}, ${state.current ? 'beside the new fact' : 'new fact not given'}`);
  if (state.current) return out;
  if (!state.newInForce) out.push('current missed: new fact not in force (split, extraction or superseded later)');
  else if (state.oldInForce && state.stale) out.push('current missed: correction not linked, old fact given instead');
  else if (state.oldInForce) out.push(`current missed: correction not linked, nothing of either given (new fact rank ${state.newRank === 0 ? '1st' : '2nd+'})`);
  else out.push(`current missed: linked, question not recalling (new fact ${state.newRank === 0 ? "the user's nearest by cosine" : 'behind another fact'})`);
  return out;
}

for (const [u, user] of users.entries()) {
  const subject = endUserSubject(ORG, `user-${u}`);
  const active = (await run.memory.list(ORG, { subject, limit: 1_000 })).map((m) => m.text);
  const activeVectors = await embedder.embed(active);
  for (const held of user.attributes) {
    if (held.fate !== 'update' || held.attribute.split !== 'dev') continue;
    const facts = attributeFacts(user, held);
    const oldInForce = active.some((t) => facts.old.has(t));
    const newInForce = active.some((t) => facts.fresh.has(t));
    bump(`updates: ${oldInForce ? 'not linked' : 'linked'}${newInForce ? '' : ', new fact not in force'}`);
    if (values.verbose && oldInForce) console.log(`  unlinked | ${held.attribute.attribute} | old ${JSON.stringify([...facts.old])} | new ${JSON.stringify([...facts.fresh])}`);
    for (const question of questions.get(held.attribute.attribute)?.tune ?? []) {
      const injected = await shippedRecall(run.memory, u, question);
      const [q] = await embedder.embed([question]);
      const order = activeVectors.map((v, i) => ({ text: active[i]!, cos: dot(v, q!) })).sort((a, b) => b.cos - a.cos);
      const newRank = order.findIndex((o) => facts.fresh.has(o.text));
      const state = { oldInForce, newInForce, stale: injected.some((t) => facts.old.has(t)), current: injected.some((t) => facts.fresh.has(t)), newRank };
      bump('questions');
      for (const c of classOf(state)) {
        bump(c);
        if (values.verbose) console.log(`  ${c} | ${held.attribute.attribute}: ${held.first} -> ${held.second} | ${question} | given ${JSON.stringify(injected)} | nearest ${order.slice(0, 2).map((o) => `${o.text} ${o.cos.toFixed(2)}`).join(' ; ')}`);
      }
    }
  }
}
for (const [key, n] of [...counts.entries()].sort()) console.log(`${n}\t${key}`);
await embedder.close?.();

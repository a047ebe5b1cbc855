/**
 * The knowledge-update questions that miss the current value, one line each, and a count by cause:
 * the new value not in force; the old value still in force and ranked above it (a correction not
 * linked); the new value the user's nearest fact but below the floor; or behind another fact and
 * below the floor. Tuning forms of the dev attributes only (the held-out ones stay unseen).
 *
 *   pnpm --filter @svc/evals memory:misses [--attributes updates-tuning.jsonl --questions update-questions-tuning.jsonl]
 */
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { endUserSubject } from '@svc/memory';
import { loadFacts } from './dataset.js';
import { loadAttributeQuestions, loadUpdateAttributes, updateUsers } from './updates-data.js';
import { asserts, replayUsers } from './updates-eval.js';

const { values } = parseArgs({ options: { attributes: { type: 'string', default: 'updates.jsonl' }, questions: { type: 'string', default: 'update-questions.jsonl' } } });
const embedder = createSentenceEncoder({ cacheSize: 0 });
const users = updateUsers(loadFacts(), loadUpdateAttributes(values.attributes), { count: 48, perUser: 6 });
const questions = loadAttributeQuestions(values.questions);
const run = await replayUsers(embedder, users, true);
const ORG = 'org-updates';
const causes = new Map<string, number>();
for (const [u, user] of users.entries()) {
  const scope = { orgId: ORG, subject: endUserSubject(ORG, `user-${u}`) };
  const active = (await run.memory.list(ORG, { subject: scope.subject, limit: 1_000 })).map((m) => m.text);
  for (const held of user.attributes) {
    if (held.fate !== 'update' || held.attribute.split !== 'dev') continue;
    for (const question of questions.get(held.attribute.attribute)?.tune ?? []) {
      const injected = (await run.memory.recall(scope, question)).map((m) => m.text);
      if (injected.some((t) => asserts(t, held.second))) continue;
      const all = await run.memory.recall(scope, question, { minSimilarity: -5, limit: 100 });
      const rank = all.findIndex((m) => asserts(m.text, held.second));
      const inForce = active.some((t) => asserts(t, held.second));
      const top = all.slice(0, 2).map((m) => `${m.text} ${m.score}/${m.similarity}`);
      const oldFirst = all.findIndex((m) => asserts(m.text, held.first));
      const cause = !inForce || rank < 0 ? 'new value not in force' : oldFirst >= 0 && oldFirst < rank ? 'old value in force, ranked above (correction not linked)' : rank === 0 ? "the user's nearest fact, below the floor" : 'behind another fact, below the floor';
      causes.set(cause, (causes.get(cause) ?? 0) + 1);
      const hit = rank >= 0 ? `${all[rank]!.text} score ${all[rank]!.score} sim ${all[rank]!.similarity} rank ${rank}` : '';
      console.log(`${cause} | ${held.attribute.attribute}: ${held.first} -> ${held.second} | ${question} | ${hit} | top: ${top.join(' ; ')} | stale ${injected.some((t) => asserts(t, held.first))} | in force: ${JSON.stringify(active.filter((t) => asserts(t, held.first) || asserts(t, held.second)))}`);
    }
  }
}
for (const [cause, n] of causes) console.log(`${n} ${cause}`);
await embedder.close?.();

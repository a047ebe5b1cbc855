/**
 * Why knowledge-update answers go wrong, counted: for every updated attribute, whether the old
 * value is still in force after the correction (the correction was not linked to it) and whether
 * the new value is in force at all; for every question, whether a stale answer comes from an old
 * value still in force, and whether a missed current value was in force but not recalled. Counts
 * for every split; example texts for the dev attributes only (the held-out ones stay unseen).
 *
 *   pnpm --filter @svc/evals memory:causes [--users 48] [--tuning-only] [--attributes updates-tuning.jsonl --questions update-questions-tuning.jsonl]
 */
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { endUserSubject } from '@svc/memory';
import { loadFacts } from './dataset.js';
import { loadAttributeQuestions, loadUpdateAttributes, updateUsers } from './updates-data.js';
import { asserts, replayUsers, shippedRecall } from './updates-eval.js';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '48' },
    attributes: { type: 'string', default: 'updates.jsonl' },
    questions: { type: 'string', default: 'update-questions.jsonl' },
    // Count the dev attributes' tuning forms only: held-out attributes and forms stay unread while rules are chosen.
    'tuning-only': { type: 'boolean', default: false },
  },
});
const formsRead = values['tuning-only'] ? (['tune'] as const) : (['tune', 'test'] as const);
const embedder = createSentenceEncoder({ cacheSize: 0 });
const users = updateUsers(loadFacts(), loadUpdateAttributes(values.attributes), { count: Number(values.users), perUser: 6 });
const questions = loadAttributeQuestions(values.questions);
const run = await replayUsers(embedder, users, true);
const counts = new Map<string, number>();
const bump = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
const examples: string[] = [];
for (const [u, user] of users.entries()) {
  const active = (await run.memory.list('org-updates', { subject: endUserSubject('org-updates', `user-${u}`), limit: 1_000 })).map((m) => m.text);
  for (const held of user.attributes) {
    if (held.fate !== 'update' || (values['tuning-only'] && held.attribute.split !== 'dev')) continue;
    const split = held.attribute.split;
    const oldActive = active.filter((t) => asserts(t, held.first));
    const newActive = active.some((t) => asserts(t, held.second));
    bump(`${split} updates`);
    if (oldActive.length > 0) bump(`${split} updates: old value still in force (correction not linked)`);
    if (!newActive) bump(`${split} updates: new value not in force`);
    if (split === 'dev' && (oldActive.length > 0 || !newActive)) examples.push(`${held.attribute.attribute}: ${held.first} -> ${held.second}; in force: ${JSON.stringify(active.filter((t) => asserts(t, held.first) || asserts(t, held.second)))}`);
    for (const forms of formsRead) {
      for (const question of questions.get(held.attribute.attribute)?.[forms] ?? []) {
        const injected = await shippedRecall(run.memory, u, question);
        const has = (value: string) => injected.some((t) => asserts(t, value));
        const key = `${split} attributes, ${forms} forms`;
        bump(`${key}: questions`);
        if (has(held.first)) bump(`${key}: stale${oldActive.length > 0 ? ' (old value in force)' : ' (other)'}`);
        if (!has(held.second)) bump(`${key}: current missed${newActive ? ' (in force, not recalled)' : ' (not in force)'}`);
      }
    }
  }
}
for (const [key, n] of [...counts.entries()].sort()) console.log(`${key}: ${n}`);
for (const line of examples) console.log(`  dev: ${line}`);
await embedder.close?.();

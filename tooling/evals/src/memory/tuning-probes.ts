import { endUserSubject, type MemoryStore } from '@svc/memory';
import type { Embedder } from '@svc/semantic';
import { loadFacts, usersOf } from './dataset.js';
import { storeUsers } from './recall-eval.js';
import { loadAttributeQuestions, loadUpdateAttributes, updateUsers } from './updates-data.js';
import { asserts, replayUsers } from './updates-eval.js';

/** One request asked of one user; `right` tells the fact that answers it (absent: an unrelated prompt). */
export type Probe = (memory: MemoryStore, scope: { orgId: string; subject: string }, prompt: string, right: ((text: string) => boolean) | undefined, set: string) => Promise<void>;

const ORG = 'org-updates';

/**
 * Asks dev data only, through `probe`: for each attribute file, the tuning forms about every dev
 * attribute not retracted (right: a fact naming its value in force), then the dev unrelated prompts
 * in turn; then the recall eval's users, the dev unrelated prompts and the calibration questions.
 */
export async function probeTuningData(embedder: Embedder, files: readonly (readonly [string, string])[], unrelated: readonly string[], probe: Probe): Promise<void> {
  for (const [file, questionsFile] of files) {
    const users = updateUsers(loadFacts(), loadUpdateAttributes(file), { count: 48, perUser: 6 });
    const questions = loadAttributeQuestions(questionsFile);
    const run = await replayUsers(embedder, users, true);
    const scopeOf = (u: number) => ({ orgId: ORG, subject: endUserSubject(ORG, `user-${u}`) });
    for (const [u, user] of users.entries()) {
      for (const held of user.attributes) {
        if (held.attribute.split !== 'dev' || held.fate === 'retract') continue;
        const value = held.fate === 'update' ? held.second : held.first;
        for (const question of questions.get(held.attribute.attribute)?.tune ?? []) await probe(run.memory, scopeOf(u), question, (t) => asserts(t, value), file);
      }
    }
    for (const [i, prompt] of unrelated.entries()) await probe(run.memory, scopeOf(i % users.length), prompt, undefined, file);
  }
  const factUsers = usersOf(loadFacts(), 6);
  const memory = await storeUsers(embedder, factUsers);
  const evalScope = (u: number) => ({ orgId: 'org-eval', subject: endUserSubject('org-eval', `user-${u}`) });
  for (const [i, prompt] of unrelated.entries()) await probe(memory, evalScope(i % factUsers.length), prompt, undefined, 'facts');
  for (const [u, items] of factUsers.entries()) {
    for (const item of items.filter((x) => x.template % 2 === 0)) for (const q of item.questions) await probe(memory, evalScope(u), q, (t) => item.fact.includes(t.replace(/\.$/, '')), 'facts');
  }
}

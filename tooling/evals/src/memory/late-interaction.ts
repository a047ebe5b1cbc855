/**
 * Issue #35's suggested next step, tried untrained: a late-interaction score over the shared
 * encoder's token states (for each word piece of the request, its best cosine to a word piece of
 * the fact, averaged: ColBERT's MaxSim), mixed with the sentence cosine as
 * `(1 - a) * cosine + a * maxsim + cues`. For each mix, floors are calibrated on the dev unrelated
 * prompts (QQP 0-999) as the shipped ones were (prompts that do not refer to their user within
 * half of a 0.5% budget, then the self floor for 0.5% in all), and the share of dev questions given
 * their fact is reported on the recall eval's calibration templates and on the tuning forms of the
 * knowledge-update attributes (dev data only; nothing held out is read).
 *
 *   pnpm --filter @svc/evals memory:late-interaction [--data ../shared/data/semcache]
 */
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { endUserSubject, extractFacts, type MemoryStore, refersToUser } from '@svc/memory';
import { loadFacts, loadUnrelated, usersOf } from './dataset.js';
import { storeUsers } from './recall-eval.js';
import { loadAttributeQuestions, loadUpdateAttributes, updateUsers } from './updates-data.js';
import { asserts, replayUsers } from './updates-eval.js';

const { values } = parseArgs({ options: { data: { type: 'string', default: '../../../shared/data/semcache' } } });
const encoder = createSentenceEncoder({ cacheSize: 0 });
const D = encoder.dimensions;
const states = new Map<string, Float32Array[]>();

/** Each word piece's state, L2-normalised. */
async function tokenStates(texts: readonly string[]): Promise<Float32Array[][]> {
  const missing = [...new Set(texts.filter((t) => !states.has(t)))];
  for (let i = 0; i < missing.length; i += 32) {
    for (const [j, e] of (await encoder.embedWithTokens(missing.slice(i, i + 32))).entries()) {
      const rows = Array.from({ length: e.tokens.ids.length }, (_, r) => {
        const row = e.tokens.states.slice(r * D, (r + 1) * D);
        const norm = Math.hypot(...row);
        return row.map((x) => x / norm);
      });
      states.set(missing[i + j]!, rows);
    }
  }
  return texts.map((t) => states.get(t)!);
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const maxSim = (query: Float32Array[], fact: Float32Array[]) => query.reduce((s, q) => s + Math.max(...fact.map((f) => dot(q, f))), 0) / query.length;

interface Candidate { text: string; cosine: number; cues: number; maxSim: number }
interface Probe { self: boolean; candidates: Candidate[]; answers?: (text: string) => boolean }

async function probe(memory: MemoryStore, scope: { orgId: string; subject: string }, prompt: string, answers?: (text: string) => boolean): Promise<Probe> {
  const found = await memory.recall(scope, prompt, { minSimilarity: -5, limit: 12 });
  const [query, ...facts] = await tokenStates([prompt, ...found.map((m) => m.text)]);
  const candidates = found.map((m, i) => ({ text: m.text, cosine: m.similarity!, cues: m.score - m.similarity!, maxSim: maxSim(query!, facts[i]!) }));
  return { self: refersToUser(prompt), candidates, ...(answers ? { answers } : {}) };
}

const unrelated = loadUnrelated(values.data).dev;
const facts = loadFacts();
const recallUsers = usersOf(facts, 6);
const recallStore = await storeUsers(encoder, recallUsers);
const scopeIn = (orgId: string, u: number) => ({ orgId, subject: endUserSubject(orgId, `user-${u}`) });
const devPrompts: Probe[] = [];
for (const [i, p] of unrelated.entries()) devPrompts.push(await probe(recallStore, scopeIn('org-eval', i % 6), p));
const devQuestions: Probe[] = [];
for (const [u, items] of recallUsers.entries()) for (const item of items.filter((f) => f.template % 2 === 0)) for (const q of item.questions) devQuestions.push(await probe(recallStore, scopeIn('org-eval', u), q, (t) => extractFacts(item.fact).some((f) => f.text === t)));

async function updateQuestions(attributes: string, questions: string, dev: boolean): Promise<Probe[]> {
  const users = updateUsers(facts, loadUpdateAttributes(attributes), { count: 48, perUser: 6 });
  const forms = loadAttributeQuestions(questions);
  const run = await replayUsers(encoder, users, true);
  const out: Probe[] = [];
  for (const [u, user] of users.entries()) for (const held of user.attributes.filter((a) => a.fate === 'update' && (!dev || a.attribute.split === 'dev'))) for (const q of forms.get(held.attribute.attribute)?.tune ?? []) out.push(await probe(run.memory, scopeIn('org-updates', u), q, (t) => asserts(t, held.second)));
  return out;
}
const tuningAttributes = await updateQuestions('updates-tuning.jsonl', 'update-questions-tuning.jsonl', false);
const devAttributes = await updateQuestions('updates.jsonl', 'update-questions.jsonl', true);

type Floors = { self: number; other: number };
const score = (a: number, c: Candidate) => (1 - a) * c.cosine + a * c.maxSim + c.cues;
const injected = (p: Probe, a: number, f: Floors) => p.candidates.filter((c) => score(a, c) >= (p.self ? f.self : f.other)).sort((x, y) => score(a, y) - score(a, x)).slice(0, 5);
const falseInjection = (ps: Probe[], a: number, f: Floors) => ps.filter((p) => injected(p, a, f).length > 0).length / ps.length;
const given = (ps: Probe[], a: number, f: Floors) => ps.filter((p) => injected(p, a, f).some((c) => p.answers!(c.text))).length / ps.length;
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
console.log('mix a: floors self / other | dev false injection | recall eval dev questions | tuning attributes, tuning forms | dev attributes, tuning forms');
for (const a of [0, 0.25, 0.5, 0.75, 1]) {
  const others = devPrompts.filter((p) => !p.self);
  let other = 0.2;
  while ((falseInjection(others, a, { self: 9, other }) * others.length) / devPrompts.length > 0.0025) other += 0.01;
  let self = 0.2;
  while (falseInjection(devPrompts, a, { self, other }) > 0.005) self += 0.01;
  const f = { self, other };
  console.log(`${a}: ${self.toFixed(2)} / ${other.toFixed(2)} | ${pct(falseInjection(devPrompts, a, f))} | ${pct(given(devQuestions, a, f))} | ${pct(given(tuningAttributes, a, f))} | ${pct(given(devAttributes, a, f))}`);
}
await encoder.close?.();

import { createMemoryStore, endUserSubject, extractFacts, type MemoryRecordStore, type MemoryStore, type ValueKinds, type ValueMatcher } from '@svc/memory';
import { createInProcessRecordStore } from '@svc/memory/test';
import { createMemoryVectorStore, type Embedder } from '@svc/semantic';
import { asserts, attributeFacts, escapeRegExp } from './stated-facts.js';
import type { AttributeQuestions, Message, UpdateUser } from './updates-data.js';

const ORG = 'org-updates';
const scopeOf = (user: number) => ({ orgId: ORG, subject: endUserSubject(ORG, `user-${user}`) });
const DAY = 86_400_000;

export { asserts };

/** How the users' facts were kept: corrections on (the shipped store), or every statement kept (similarity-only baselines). */
export interface UpdateRun {
  memory: MemoryStore;
  users: readonly UpdateUser[];
  /** Every stored row, superseded ones too (which fact replaced which). */
  records: MemoryRecordStore;
}

/** States every user's background, then session 1, then (a month later) session 2, through `remember` as a gateway would; `typers` replace the shipped value typer of rule 7 and switch on rule 8's typed half. */
export async function replayUsers(embedder: Embedder, users: readonly UpdateUser[], corrections: boolean, typers: { valueKinds?: ValueKinds; changeValues?: ValueMatcher } = {}): Promise<UpdateRun> {
  let time = Date.UTC(2026, 0, 1);
  const records = createInProcessRecordStore();
  const memory = createMemoryStore({
    records,
    vectors: createMemoryVectorStore({ capacity: 100_000, now: () => time }),
    embedder,
    maxPending: 100_000,
    corrections,
    valueKinds: typers.valueKinds,
    changeValues: typers.changeValues,
    now: () => time,
  });
  const say = async (texts: readonly (string | undefined)[]) => {
    for (const [u, text] of texts.entries()) if (text) memory.remember(scopeOf(u), text);
    await memory.idle();
  };
  const most = Math.max(...users.map((u) => u.background.length));
  for (let i = 0; i < most; i++) {
    time += 60_000;
    await say(users.map((u) => u.background[i]));
  }
  for (const session of ['session1', 'session2'] as const) {
    time += session === 'session1' ? DAY : 30 * DAY;
    const longest = Math.max(...users.map((u) => u[session].length));
    for (let i = 0; i < longest; i++) {
      time += 60_000;
      await say(users.map((u) => u[session][i]?.text));
    }
  }
  return { memory, users, records };
}

/** The share of related questions given the current value, given a superseded or retracted one, and of kept values still recalled. */
export interface UpdateScores {
  questions: number;
  /** Updated attributes: the new value injected. */
  current: number;
  /** Updated attributes: the old value injected (stale). */
  stale: number;
  /** Retracted attributes: the retracted value still injected. */
  retractedGiven: number;
  /** Attributes never corrected: their value injected. */
  keptRecalled: number;
  updated: number;
  retracted: number;
  kept: number;
  /** The same four counted per fact: a fact the user's statement of that value was stored as is injected (not any fact naming the value). */
  byFact: { current: number; stale: number; retractedGiven: number; keptRecalled: number };
}

/** What is injected for a question: the store's recall with its defaults, or the recency-only baseline (the five newest facts). */
export type Injector = (memory: MemoryStore, user: number, question: string) => Promise<string[]>;

export const shippedRecall: Injector = async (memory, user, question) => (await memory.recall(scopeOf(user), question)).map((m) => m.text);
export const recencyOnly: Injector = async (memory, user) => (await memory.list(ORG, { subject: scopeOf(user).subject, limit: 5 })).map((m) => m.text);

/** Asks every user, about each of their attributes, every question form of `forms` (`tune` or `test`), restricted to attributes of `split` when given. */
export async function scoreQuestions(
  run: UpdateRun,
  questions: ReadonlyMap<string, AttributeQuestions>,
  options: { forms: 'tune' | 'test'; split?: 'dev' | 'test'; inject: Injector; explain?: (line: string) => void },
): Promise<UpdateScores> {
  const s: UpdateScores = { questions: 0, current: 0, stale: 0, retractedGiven: 0, keptRecalled: 0, updated: 0, retracted: 0, kept: 0, byFact: { current: 0, stale: 0, retractedGiven: 0, keptRecalled: 0 } };
  for (const [u, user] of run.users.entries()) {
    for (const held of user.attributes) {
      if (options.split && held.attribute.split !== options.split) continue;
      const facts = attributeFacts(user, held);
      for (const question of questions.get(held.attribute.attribute)?.[options.forms] ?? []) {
        const injected = await options.inject(run.memory, u, question);
        const has = (value: string) => injected.some((text) => asserts(text, value));
        const gives = (stated: ReadonlySet<string>) => injected.some((text) => stated.has(text));
        s.questions++;
        if (held.fate === 'update') {
          s.updated++;
          if (has(held.second)) s.current++;
          if (has(held.first)) s.stale++;
          if (gives(facts.fresh)) s.byFact.current++;
          if (gives(facts.old)) s.byFact.stale++;
          if (options.explain && (!has(held.second) || has(held.first))) options.explain(`${held.attribute.attribute}: ${held.first} -> ${held.second} | ${question} | ${JSON.stringify(injected)}`);
        } else if (held.fate === 'retract') {
          s.retracted++;
          if (has(held.first)) s.retractedGiven++;
          if (gives(facts.old)) s.byFact.retractedGiven++;
        } else {
          s.kept++;
          if (has(held.first)) s.keptRecalled++;
          if (gives(facts.old)) s.byFact.keptRecalled++;
        }
      }
    }
  }
  return s;
}

/** Share of `prompts` (asked by the users in turn) that get anything injected. */
export async function falseInjection(run: UpdateRun, prompts: readonly string[]): Promise<number> {
  let injected = 0;
  for (const [i, prompt] of prompts.entries()) if ((await run.memory.recall(scopeOf(i % run.users.length), prompt)).length > 0) injected++;
  return injected / prompts.length;
}

/** Background facts (never corrected) that are no longer in force: what over-eager corrections cost. */
export async function backgroundLost(run: UpdateRun): Promise<{ lost: number; total: number; examples: string[] }> {
  let lost = 0;
  let total = 0;
  const examples: string[] = [];
  for (const [u, user] of run.users.entries()) {
    const kept = new Set((await run.memory.list(ORG, { subject: scopeOf(u).subject, limit: 1_000 })).map((m) => m.text));
    for (const fact of user.background.flatMap((text) => extractFacts(text).map((f) => f.text))) {
      total++;
      if (!kept.has(fact)) {
        lost++;
        if (examples.length < 8) examples.push(fact);
      }
    }
  }
  return { lost, total, examples };
}

/** Words of instructions, questions and small talk that a stored fact must not carry. */
const RESIDUE = /say exactly|\?|\bthanks\b|\blol\b|podcast|what do you think|for future reference|quick note|just so you know|correction|update:|some news|oh, and|\bhi\b/i;

/** Share of messages split into exactly one clean fact per statement, and the facts that kept residue. */
export function cleanFacts(messages: readonly Message[]): { clean: number; messages: number; residue: string[]; unsplit: string[] } {
  let clean = 0;
  const residue: string[] = [];
  const unsplit: string[] = [];
  for (const message of messages) {
    const facts = extractFacts(message.text).map((f) => f.text);
    const dirty = facts.filter((f) => RESIDUE.test(f));
    residue.push(...dirty);
    const oneEach = facts.length === message.clauses.length && message.clauses.every((c) => facts.filter((f) => new RegExp(`\\b${escapeRegExp(c.value)}\\b`, 'i').test(f)).length === 1);
    if (!oneEach) unsplit.push(`${message.text} -> ${JSON.stringify(facts)}`);
    if (oneEach && dirty.length === 0) clean++;
  }
  return { clean, messages: messages.length, residue, unsplit };
}

/** Each superseded fact with the fact that replaced it, `old => new`, in the order stored. */
export async function supersessions(run: UpdateRun): Promise<string[]> {
  const rows = await run.records.listNewest(1_000_000, { history: true });
  const text = new Map(rows.map((r) => [r.id, r.text]));
  return rows.filter((r) => r.supersededBy).map((r) => `"${r.text}" => "${text.get(r.supersededBy!) ?? '?'}"`);
}

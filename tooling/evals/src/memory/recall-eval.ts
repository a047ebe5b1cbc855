import { createMemoryStore, type CueWeights, cueBonus, endUserSubject, extractFacts, type MemoryStore, type MemoryStoreSettings, recallCues, refersToUser } from '@svc/memory';
import { createInProcessRecordStore } from '@svc/memory/test';
import { createMemoryVectorStore, type Embedder } from '@svc/semantic';
import type { FactItem } from './dataset.js';

/** One stored fact as a prompt's candidate: its similarity and which cues it shares with the prompt. */
interface Candidate {
  text: string;
  similarity: number;
  wordHit: number;
  slotHit: number;
}

/** Every stored fact of the asking user for one prompt, before any floor or cue bonus. */
export interface Recalled {
  /** Whether the prompt refers to its user (it gets the `self` floor). */
  self: boolean;
  candidates: Candidate[];
}

/** The floors a recall applies: `self` for prompts that refer to their user, `other` for the rest. */
export interface Floors {
  self: number;
  other: number;
}

/** What one question needs: the facts it asks for (a statement may hold two), and what came back. */
export interface RelatedProbe extends Recalled {
  expected: Set<string>;
  template: number;
  user: number;
  question: string;
}

const ORG = 'org-eval';
const scopeOf = (user: number) => ({ orgId: ORG, subject: endUserSubject(ORG, `user-${user}`) });
const floorOf = (probe: Recalled, floors: Floors) => (probe.self ? floors.self : floors.other);

/** A memory store holding each user's facts, stated through `remember` as a user would. */
export async function storeUsers(embedder: Embedder, users: readonly FactItem[][], settings: Partial<MemoryStoreSettings> = {}): Promise<MemoryStore> {
  const memory = createMemoryStore({ records: createInProcessRecordStore(), vectors: createMemoryVectorStore({ capacity: 100_000 }), embedder, maxPending: 100_000, ...settings });
  for (const [u, facts] of users.entries()) for (const item of facts) memory.remember(scopeOf(u), item.fact);
  await memory.idle();
  return memory;
}

async function recall(memory: MemoryStore, user: number, prompt: string): Promise<Recalled> {
  const found = await memory.recall(scopeOf(user), prompt, { limit: 100, minSimilarity: -1, cues: false });
  const cues = recallCues(prompt);
  const candidates = found.map((m) => ({
    text: m.text,
    similarity: m.score,
    wordHit: cueBonus(cues, m, { wordHit: 1, slotHit: 0 }),
    slotHit: cueBonus(cues, m, { wordHit: 0, slotHit: 1 }),
  }));
  return { self: refersToUser(prompt), candidates };
}

/** Every question of every user's facts, asked by that user. */
export async function probeRelated(memory: MemoryStore, users: readonly FactItem[][]): Promise<RelatedProbe[]> {
  const probes: RelatedProbe[] = [];
  for (const [u, facts] of users.entries()) {
    for (const item of facts) {
      const expected = new Set(extractFacts(item.fact).map((fact) => fact.text));
      for (const question of item.questions) probes.push({ ...(await recall(memory, u, question)), expected, template: item.template, user: u, question });
    }
  }
  return probes;
}

/** Each unrelated prompt, asked by the users in turn. */
export async function probeUnrelated(memory: MemoryStore, users: number, prompts: readonly string[]): Promise<Recalled[]> {
  const out: Recalled[] = [];
  for (const [i, prompt] of prompts.entries()) out.push(await recall(memory, i % users, prompt));
  return out;
}

/** The five best facts with these cue weights, as the store ranks them (relevance = similarity + bonus). */
function topFive(probe: Recalled, weights: CueWeights): { text: string; relevance: number }[] {
  return probe.candidates
    .map((c) => ({ text: c.text, relevance: c.similarity + weights.wordHit * c.wordHit + weights.slotHit * c.slotHit }))
    .sort((a, b) => b.relevance - a.relevance)
    .slice(0, 5);
}

/** Cosine similarity alone: the store before cues. */
export const NO_CUES: CueWeights = { wordHit: 0, slotHit: 0 };

/** Share of prompts that would get anything injected at these floors. */
export const falseInjection = (probes: readonly Recalled[], floors: Floors, weights: CueWeights = NO_CUES): number =>
  probes.filter((p) => (topFive(p, weights)[0]?.relevance ?? -1) >= floorOf(p, floors)).length / probes.length;

/** Share of questions one of whose facts is injected (in the top five and at or above its floor). */
export const relatedHit = (probes: readonly RelatedProbe[], floors: Floors, weights: CueWeights = NO_CUES): number =>
  probes.filter((p) => topFive(p, weights).some((m) => p.expected.has(m.text) && m.relevance >= floorOf(p, floors))).length / probes.length;

/** Through the store's own `recall` with its defaults: the share of prompts that got anything, and of questions that got their fact. */
export async function shippedRecall(memory: MemoryStore, users: number, unrelated: readonly string[], related: readonly RelatedProbe[]) {
  let injected = 0;
  for (const [i, prompt] of unrelated.entries()) if ((await memory.recall(scopeOf(i % users), prompt)).length > 0) injected++;
  let hits = 0;
  for (const probe of related) if ((await memory.recall(scopeOf(probe.user), probe.question)).some((m) => probe.expected.has(m.text))) hits++;
  return { falseInjection: injected / unrelated.length, relatedHit: hits / related.length };
}

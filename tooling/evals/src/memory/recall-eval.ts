import { createMemoryStore, endUserSubject, type MemoryStore, refersToUser } from '@svc/memory';
import { createInProcessRecordStore } from '@svc/memory/test';
import { createMemoryVectorStore, type Embedder } from '@svc/semantic';
import type { FactItem } from './dataset.js';

/** The best five stored facts for one prompt, with their similarities (no floor yet). */
export interface Recalled {
  /** Whether the prompt refers to its user (it gets the `self` floor). */
  self: boolean;
  scores: number[];
  texts: string[];
}

/** The floors a recall applies: `self` for prompts that refer to their user, `other` for the rest. */
export interface Floors {
  self: number;
  other: number;
}

const floorOf = (probe: Recalled, floors: Floors) => (probe.self ? floors.self : floors.other);

/** What one question needs: the fact it asks for, and what came back. */
export interface RelatedProbe extends Recalled {
  expected: string;
  template: number;
}

const ORG = 'org-eval';
const scopeOf = (user: number) => ({ orgId: ORG, subject: endUserSubject(ORG, `user-${user}`) });

/** A memory store holding each user's facts, stated through `remember` as a user would. */
export async function storeUsers(embedder: Embedder, users: readonly FactItem[][]): Promise<MemoryStore> {
  const memory = createMemoryStore({ records: createInProcessRecordStore(), vectors: createMemoryVectorStore({ capacity: 100_000 }), embedder, maxPending: 100_000 });
  for (const [u, facts] of users.entries()) for (const item of facts) memory.remember(scopeOf(u), item.fact);
  await memory.idle();
  return memory;
}

async function recall(memory: MemoryStore, user: number, prompt: string): Promise<Recalled> {
  const found = await memory.recall(scopeOf(user), prompt, { limit: 5, minSimilarity: -1 });
  return { self: refersToUser(prompt), scores: found.map((m) => m.score), texts: found.map((m) => m.text) };
}

/** Every question of every user's facts, asked by that user. */
export async function probeRelated(memory: MemoryStore, users: readonly FactItem[][]): Promise<RelatedProbe[]> {
  const probes: RelatedProbe[] = [];
  for (const [u, facts] of users.entries()) {
    for (const item of facts) {
      for (const question of item.questions) probes.push({ ...(await recall(memory, u, question)), expected: item.fact, template: item.template });
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

/** Share of prompts that would get anything injected at these floors. */
export const falseInjection = (probes: readonly Recalled[], floors: Floors): number => probes.filter((p) => (p.scores[0] ?? -1) >= floorOf(p, floors)).length / probes.length;

/** Share of questions whose fact is injected (in the top five and at or above its floor). */
export const relatedHit = (probes: readonly RelatedProbe[], floors: Floors): number =>
  probes.filter((p) => p.texts.some((text, i) => text === p.expected && p.scores[i]! >= floorOf(p, floors))).length / probes.length;

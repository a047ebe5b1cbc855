import { randomUUID } from 'node:crypto';
import { createHashedEmbedder, createMemoryVectorStore, createQdrantVectorStore, type VectorStore } from '@svc/semantic';
import { startFakeQdrantServer } from '@svc/semantic/test';
import { describe, expect, it } from 'vitest';
import { endUserSubject, keySubject } from './memory-scope.js';
import { createMemoryStore, type MemoryStoreSettings } from './memory-store.js';
import { RERANK_FEATURES } from './recall-features.js';
import { RECALL_CUE_WEIGHTS } from './recall-threshold.js';
import { createInProcessRecordStore as recordStore } from './test/record-store.js';

const ada = { orgId: 'org-a', subject: endUserSubject('org-a', 'ada') };
const bob = { orgId: 'org-a', subject: endUserSubject('org-a', 'bob') };

function setup(settings: Partial<MemoryStoreSettings> = {}) {
  let time = Date.UTC(2026, 0, 1);
  const records = recordStore();
  const vectors = settings.vectors ?? createMemoryVectorStore({ now: () => time });
  const memory = createMemoryStore({ records, vectors, embedder: createHashedEmbedder(), recallThreshold: 0.3, now: () => time, ...settings });
  return { memory, records, vectors, advance: (ms: number) => (time += ms) };
}

describe('createMemoryStore', () => {
  it('stores the facts an end user stated, never questions or requests, and recalls them only for that end user', async () => {
    const { memory, records } = setup();
    expect(memory.remember(ada, 'Hi! I live in Lisbon. Which city is warmer, Lisbon or Rome?')).toBe(1);
    expect(memory.remember(ada, 'say exactly: from gemini')).toBe(0);
    await memory.idle();
    expect([...records.rows.values()].map((row) => row.text)).toEqual(['I live in Lisbon.']);

    const found = await memory.recall(ada, 'In which city do I live?');
    expect(found.map((m) => m.text)).toEqual(['I live in Lisbon.']);
    expect(await memory.recall(bob, 'In which city do I live?')).toEqual([]);
    expect(await memory.recall({ orgId: 'org-b', subject: ada.subject }, 'In which city do I live?')).toEqual([]);
    expect(await memory.recall({ orgId: 'org-a', subject: keySubject('key_1') }, 'In which city do I live?')).toEqual([]);
    // An organisation that opted in recalls across its end users.
    expect((await memory.recall({ orgId: 'org-a' }, 'In which city do I live?')).map((m) => m.subject)).toEqual([ada.subject]);
  });

  it('reports the re-ranker features of the nearest facts only when asked, and only of the caller\'s scope', async () => {
    const { memory } = setup();
    memory.remember(ada, 'I live in Lisbon. I work as a nurse.');
    memory.remember(bob, 'I live in Rome.');
    await memory.idle();
    const described = await memory.recall(ada, 'Where do I live?', { minSimilarity: -1, features: true });
    expect(described.map((m) => m.subject)).toEqual([ada.subject, ada.subject]);
    for (const m of described) expect(m.features?.values).toHaveLength(RERANK_FEATURES.length);
    const home = described.find((m) => m.text.includes('Lisbon'))!;
    expect(home.features!.values[RERANK_FEATURES.indexOf('first')]).toBe(1);
    expect((await memory.recall(ada, 'Where do I live?', { minSimilarity: -1 })).every((m) => m.features === undefined)).toBe(true);
  });

  it('injects nothing for an unrelated request: the similarity floor holds', async () => {
    const { memory } = setup();
    memory.remember(ada, 'My favourite colour is teal. I work at Acme Robotics.');
    await memory.idle();
    expect(await memory.recall(ada, 'Explain the difference between TCP and UDP')).toEqual([]);
    expect((await memory.recall(ada, 'what is my favourite colour')).map((m) => m.text)).toEqual(['My favourite colour is teal.']);
  });

  it('adds the cue bonus to the similarity: a question that asks for a slot reaches the fact that fills it', async () => {
    const { memory } = setup();
    memory.remember(ada, 'My name is Ada. My sister is called Ann.');
    await memory.idle();
    const asked = 'Do you remember what I am called?';
    const plain = await memory.recall(ada, asked, { cues: false, minSimilarity: -1 });
    const name = plain.find((m) => m.text === 'My name is Ada.')!;
    expect(name.score).toBe(name.similarity);
    // A floor the similarity alone misses by less than the slot bonus.
    const floor = name.similarity! + RECALL_CUE_WEIGHTS.slotHit / 2;
    expect((await memory.recall(ada, asked, { cues: false, minSimilarity: floor })).map((m) => m.text)).not.toContain('My name is Ada.');
    const found = (await memory.recall(ada, asked, { minSimilarity: floor })).find((m) => m.slot === 'name');
    expect(found).toMatchObject({ text: 'My name is Ada.', slot: 'name', similarity: name.similarity });
    expect(found!.score).toBeCloseTo(Math.min(1, name.similarity! + RECALL_CUE_WEIGHTS.slotHit), 3);
  });

  it('counts the cue bonus only for a fact at least `cued` similar to the request', async () => {
    const asked = 'Do you remember what I am called?';
    const recalled = async (floors: { self: number; other: number; cued?: number }) => {
      const { memory } = setup({ recallThreshold: floors });
      memory.remember(ada, 'My name is Ada. My sister is called Ann.');
      await memory.idle();
      return { memory, texts: (await memory.recall(ada, asked)).map((m) => m.text) };
    };
    const { memory } = await recalled({ self: 0.3, other: 0.3 });
    const similarity = (await memory.recall(ada, asked, { cues: false, minSimilarity: -1 })).find((m) => m.slot === 'name')!.similarity!;
    const floor = similarity + RECALL_CUE_WEIGHTS.slotHit / 2;
    expect((await recalled({ self: floor, other: floor, cued: similarity - 0.01 })).texts).toContain('My name is Ada.');
    expect((await recalled({ self: floor, other: floor, cued: similarity + 0.01 })).texts).not.toContain('My name is Ada.');
  });

  it('holds a request that does not refer to its user and asks for no attribute to the stricter `unsure` floor', async () => {
    const texts = async (floors: { self: number; other: number; unsure?: { closeness: number; floor: number } }, asked: string) => {
      const { memory } = setup({ recallThreshold: floors });
      memory.remember(ada, 'My favourite book is Emma.');
      await memory.idle();
      return (await memory.recall(ada, asked)).map((m) => m.text);
    };
    const about = 'What is your all time favorite book?';
    expect(await texts({ self: 0.2, other: 0.2 }, about)).toEqual(['My favourite book is Emma.']);
    // The hashed embedder places no request near an attribute: every request is of low attribute confidence.
    const strict = { self: 0.2, other: 0.2, unsure: { closeness: 0.6, floor: 0.99 } };
    expect(await texts(strict, about)).toEqual([]);
    expect(await texts(strict, 'What is my all time favourite book?')).toEqual(['My favourite book is Emma.']);
  });

  it('gives the user’s clearly nearest fact below the floor to a question about their own state, never to another user', async () => {
    const nearest = { state: { floor: 0.05, ahead: 0.05 }, own: { floor: 2, ahead: 2 } };
    const { memory } = setup({ recallThreshold: { self: 0.6, other: 0.6, nearest } });
    memory.remember(ada, 'I replaced my laptop with a ThinkPad. I go climbing every Tuesday.');
    memory.remember(bob, 'My laptop is a MacBook.');
    await memory.idle();
    const asked = 'Which laptop do I have?';
    expect((await memory.recall(ada, asked)).map((m) => m.text)).toEqual(['I replaced my laptop with a ThinkPad.']);
    expect((await memory.recall(bob, asked)).map((m) => m.text)).toEqual(['My laptop is a MacBook.']);
    // Not a question about the user's state, an explicit floor, or the rule off: nothing clears 0.6.
    expect(await memory.recall(ada, 'How do I clean a laptop keyboard?')).toEqual([]);
    expect(await memory.recall(ada, asked, { minSimilarity: 0.99 })).toEqual([]);
    const off = setup({ recallThreshold: { self: 0.6, other: 0.6 } });
    off.memory.remember(ada, 'I replaced my laptop with a ThinkPad.');
    await off.memory.idle();
    expect(await off.memory.recall(ada, asked)).toEqual([]);
  });

  it('gives the user’s nearest fact below the floor to a request whose own thing points to it too, never to another user', async () => {
    const nearest = { state: { floor: 2, ahead: 2 }, phrase: { floor: 0.05, ahead: 0.05, phrase: 0.2, phraseAhead: 0.05 } };
    const { memory } = setup({ recallThreshold: { self: 0.6, other: 0.6, nearest } });
    memory.remember(ada, 'I replaced my laptop with a ThinkPad. I go climbing every Tuesday.');
    memory.remember(bob, 'My laptop is a MacBook.');
    await memory.idle();
    const asked = 'Can you find a charger that fits my laptop?';
    expect((await memory.recall(ada, asked)).map((m) => m.text)).toEqual(['I replaced my laptop with a ThinkPad.']);
    expect((await memory.recall(bob, asked)).map((m) => m.text)).toEqual(['My laptop is a MacBook.']);
    // No owned thing named (a question about the world), or an explicit floor: nothing clears 0.6.
    expect(await memory.recall(ada, 'Which laptop charger is the best one I can get?')).toEqual([]);
    expect(await memory.recall(ada, asked, { minSimilarity: 0.99 })).toEqual([]);
  });

  it('supersedes a fact of the same slot with the newer one, keeping the old one as history, and merges a near-duplicate', async () => {
    const { memory, records, advance } = setup();
    memory.remember(ada, 'I live in Lisbon.');
    await memory.idle();
    const [first] = [...records.rows.values()];
    advance(60_000);
    memory.remember(ada, 'I moved to Berlin last month.');
    await memory.idle();
    advance(60_000);
    memory.remember(ada, 'I moved to Berlin last month!');
    await memory.idle();
    const rows = [...records.rows.values()];
    expect(rows).toHaveLength(2);
    const berlin = rows.find((row) => row.id !== first!.id)!;
    expect(berlin).toMatchObject({ text: 'I moved to Berlin last month!', slot: 'home', supersededBy: null });
    expect(berlin.updatedAt.getTime()).toBeGreaterThan(berlin.createdAt.getTime());
    expect(records.rows.get(first!.id)).toMatchObject({ text: 'I live in Lisbon.', supersededBy: berlin.id });
    expect((await memory.recall(ada, 'Which city do I live in?', { minSimilarity: -1 })).map((m) => m.text)).toEqual(['I moved to Berlin last month!']);
    expect((await memory.list('org-a', { subject: ada.subject })).map((m) => m.text)).toEqual(['I moved to Berlin last month!']);
  });

  it('recalls through history: a superseded fact the request matches lends its match to the fact in force at the end of its chain', async () => {
    const { memory, records, vectors, advance } = setup();
    for (const said of ['I live in Lisbon.', 'I moved to Berlin last month.', 'I moved to Paris this week.']) {
      memory.remember(ada, said);
      await memory.idle();
      advance(60_000);
    }
    const paris = [...records.rows.values()].find((row) => row.supersededBy === null)!;
    expect(paris.text).toBe('I moved to Paris this week.');
    // The two superseded facts are history: in the table with their vectors, and in the index's history partition.
    expect([...records.rows.values()].filter((row) => row.supersededBy !== null).every((row) => row.embedding !== null)).toBe(true);
    const asked = 'Is Lisbon my home town?';
    const recalled = await memory.recall(ada, asked);
    expect(recalled.map((m) => m.text)).toEqual(['I moved to Paris this week.']);
    expect(await memory.recall(bob, asked)).toEqual([]);
    // The chain's end gone (forgotten, or retracted): the old wording lends its match to nothing.
    await memory.forget('org-a', [paris.id]);
    expect(await memory.recall(ada, asked)).toEqual([]);
    await memory.forgetSubject('org-a', ada.subject);
    expect(await vectors.count('org-a')).toBe(0);
  });

  it('lends a superseded fact\'s match to its successor without its similarity: the lifted change stands in for no other fact', async () => {
    const { memory, advance } = setup();
    for (const said of ['I ride my scooter to work in Lisbon.', 'I live in Lisbon.', 'I moved to Berlin.']) {
      memory.remember(ada, said);
      await memory.idle();
      advance(60_000);
    }
    // "I live in Lisbon." is history; its match lifts "I moved to Berlin.", whose own similarity stays its own (about 0),
    // so the change is not taken for a newer value of the scooter fact the question also finds.
    const recalled = await memory.recall(ada, 'Do I live in Lisbon?');
    expect(recalled.map((m) => m.text)).toEqual(['I moved to Berlin.', 'I ride my scooter to work in Lisbon.']);
    expect(recalled[0]!.similarity).toBeLessThan(0.2);
  });

  it('recalls through history after a restart: hydration loads superseded facts that keep their vector as history', async () => {
    const { memory, records, advance } = setup();
    for (const said of ['I live in Lisbon.', 'I moved to Berlin last month.', 'I moved to Paris this week.']) {
      memory.remember(ada, said);
      await memory.idle();
      advance(60_000);
    }
    const at = () => Date.UTC(2026, 0, 1, 1);
    const restart = (limit: number) => {
      const store = createMemoryStore({ records, vectors: createMemoryVectorStore({ now: at }), embedder: createHashedEmbedder(), recallThreshold: 0.3, now: at });
      return { store, loaded: store.hydrate(limit) };
    };
    const asked = 'Is Lisbon my home town?';
    const restarted = restart(100);
    expect(await restarted.loaded).toBe(3);
    expect((await restarted.store.recall(ada, asked)).map((m) => m.text)).toEqual(['I moved to Paris this week.']);
    expect(await restarted.store.recall(bob, asked)).toEqual([]);
    // The same bound as facts in force, newest first: the oldest (Lisbon's history) is left out.
    const bounded = restart(2);
    expect(await bounded.loaded).toBe(2);
    expect(await bounded.store.recall(ada, asked)).toEqual([]);
  });

  it('re-embeds history rows of another embedder at hydration, as rows in force are, keeping them history', async () => {
    const { memory, records } = setup();
    for (const said of ['I live in Lisbon.', 'I moved to Paris this week.']) memory.remember(ada, said);
    await memory.idle();
    for (const [id, row] of records.rows) records.rows.set(id, { ...row, embedder: 'retired-encoder', embedding: new Float32Array([1, 0]) });
    const at = () => Date.UTC(2026, 0, 1, 1);
    const restarted = createMemoryStore({ records, vectors: createMemoryVectorStore({ now: at }), embedder: createHashedEmbedder(), recallThreshold: 0.3, now: at });
    expect(await restarted.hydrate(100)).toBe(2);
    expect((await restarted.recall(ada, 'Is Lisbon my home town?')).map((m) => m.text)).toEqual(['I moved to Paris this week.']);
    const lisbon = [...records.rows.values()].find((row) => row.text === 'I live in Lisbon.')!;
    expect(lisbon).toMatchObject({ embedder: createHashedEmbedder().id, supersededBy: expect.any(String) });
  });

  it('hydrates past history rows of the previous release (superseded, no vector): they are not loaded', async () => {
    const { memory, records } = setup();
    memory.remember(ada, 'I live in Lisbon.');
    memory.remember(ada, 'I moved to Berlin last month.');
    await memory.idle();
    for (const [id, row] of records.rows) if (row.supersededBy) records.rows.set(id, { ...row, embedder: null, embedding: null });
    const at = () => Date.UTC(2026, 0, 1, 1);
    const restarted = createMemoryStore({ records, vectors: createMemoryVectorStore({ now: at }), embedder: createHashedEmbedder(), recallThreshold: 0.3, now: at });
    expect(await restarted.hydrate(100)).toBe(1);
    expect((await restarted.recall(ada, 'Which city do I live in?', { minSimilarity: -1 })).map((m) => m.text)).toEqual(['I moved to Berlin last month.']);
    expect([...records.rows.values()].filter((row) => row.supersededBy).map((row) => row.embedding)).toEqual([null]);
  });

  it('deletes what a retraction or a "forget that" names, stores the retraction but not the request, and reports what it retired', async () => {
    const retired: string[] = [];
    const { memory, records } = setup({ onRetired: (_orgId, ids) => retired.push(...ids) });
    memory.remember(ada, 'I live in Lisbon. I work as a nurse.');
    await memory.idle();
    const byText = (text: string) => [...records.rows.values()].find((row) => row.text === text)!;
    const lisbon = byText('I live in Lisbon.');
    const nurse = byText('I work as a nurse.');
    memory.remember(ada, "Please forget that I live in Lisbon. I don't work as a nurse anymore.");
    await memory.idle();
    expect([...records.rows.values()].map((row) => row.text)).toEqual(["I don't work as a nurse anymore."]);
    expect(retired.sort()).toEqual([lisbon.id, nurse.id].sort());
    expect((await memory.recall(ada, 'where do I live', { minSimilarity: -1 })).map((m) => m.text)).toEqual(["I don't work as a nurse anymore."]);
  });

  it('keeps another person’s change apart from the user’s own facts', async () => {
    const { memory } = setup();
    memory.remember(ada, 'I live in Lisbon. My sister lives in Madrid.');
    await memory.idle();
    memory.remember(ada, 'My sister moved to Dublin.');
    await memory.idle();
    const texts = (await memory.recall(ada, 'where do we live', { minSimilarity: -1 })).map((m) => m.text);
    expect(texts).toContain('I live in Lisbon.');
    expect(texts).toContain('My sister moved to Dublin.');
  });

  it('ranks the own conversation first and redacts PII before storing when asked', async () => {
    const { memory, records } = setup();
    memory.remember({ ...ada, conversationId: 'c1' }, 'My project codename is Bluebird.');
    memory.remember({ ...ada, conversationId: 'c2' }, 'My side project codename is Redwing.');
    memory.remember(ada, 'My email is ada@example.com.', { redactPii: true });
    await memory.idle();
    const found = await memory.recall({ ...ada, conversationId: 'c2' }, 'my project codename');
    expect(found[0]!.text).toBe('My side project codename is Redwing.');
    expect([...records.rows.values()].map((row) => row.text)).toContain('My email is [EMAIL_1].');
  });

  it('forgets by id and by end user, in the database, the index and the write queue', async () => {
    const { memory, records } = setup({ flushMs: 60_000 });
    memory.remember(ada, 'I live in Lisbon. I have two cats.');
    memory.remember(bob, 'I live in Oslo.');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await memory.forgetSubject('org-a', ada.subject)).toEqual([]); // still queued: dropped before it is written
    await memory.idle();
    expect([...records.rows.values()].map((row) => row.text)).toEqual(['I live in Oslo.']);
    expect(await memory.recall(ada, 'where do I live')).toEqual([]);
    const [oslo] = await memory.recall(bob, 'where do I live');
    expect(await memory.forget('org-b', [oslo!.id])).toEqual([]);
    expect(await memory.forget('org-a', [oslo!.id])).toEqual([oslo!.id]);
    expect(await memory.recall(bob, 'where do I live')).toEqual([]);
  });

  it('drops another instance’s forgotten facts from its own index on evict', async () => {
    const { memory } = setup();
    memory.remember(ada, 'I live in Lisbon.');
    await memory.idle();
    await memory.evict('org-a', { subject: ada.subject });
    expect(await memory.recall(ada, 'where do I live')).toEqual([]);
  });

  it('expires facts past the retention period and rebuilds an in-process index from the table after a restart', async () => {
    const { memory, records, advance } = setup({ ttlDays: 30 });
    memory.remember(ada, 'I live in Lisbon.');
    await memory.idle();
    advance(10 * 86_400_000);
    memory.remember(bob, 'I live in Oslo.');
    await memory.idle();

    const at = () => Date.UTC(2026, 0, 11);
    const restarted = createMemoryStore({ records, vectors: createMemoryVectorStore({ now: at }), embedder: createHashedEmbedder(), recallThreshold: 0.3, now: at });
    expect(await restarted.recall(ada, 'where do I live')).toEqual([]);
    expect(await restarted.hydrate(100)).toBe(2);
    expect((await restarted.recall(ada, 'where do I live')).map((m) => m.text)).toEqual(['I live in Lisbon.']);

    advance(25 * 86_400_000);
    expect(await memory.recall(ada, 'where do I live')).toEqual([]);
    expect(await memory.expire()).toBe(1);
    expect([...records.rows.values()].map((row) => row.text)).toEqual(['I live in Oslo.']);
  });

  it('drops stores beyond its bound and ignores text without facts', async () => {
    const { memory } = setup({ maxPending: 1 });
    expect(memory.remember(ada, '   ')).toBe(0);
    expect(memory.remember(ada, 'I live in Lisbon.')).toBe(1);
    expect(memory.remember(bob, 'I live in Oslo.')).toBe(0);
    await memory.idle();
    expect(memory.stats()).toEqual({ pending: 0, dropped: 1, failed: 0 });
  });

  it('recalls through Qdrant, kept apart by end user', async () => {
    const qdrant = await startFakeQdrantServer();
    const embedder = createHashedEmbedder();
    const vectors: VectorStore = createQdrantVectorStore({ url: qdrant.url, dimensions: embedder.dimensions, collection: `memory_test_${randomUUID().slice(0, 8)}`, now: () => Date.UTC(2026, 0, 1) });
    try {
      const { memory } = setup({ vectors });
      memory.remember({ ...ada, conversationId: 'c1' }, 'I take the release train every Thursday.');
      await memory.idle();
      const [found] = await memory.recall(ada, 'when do I take the release train?');
      expect(found).toMatchObject({ text: 'I take the release train every Thursday.', role: 'user', conversationId: 'c1', subject: ada.subject });
      expect(await memory.recall(bob, 'when do I take the release train?')).toEqual([]);
      await memory.forgetSubject('org-a', ada.subject);
      expect(await memory.recall(ada, 'when do I take the release train?')).toEqual([]);
    } finally {
      await vectors.close();
      await qdrant.close();
    }
  });
});

describe('recall cost', () => {
  it('embeds nothing for an end user who never stated a fact (in-process index)', async () => {
    const inner = createHashedEmbedder();
    let embedded = 0;
    const counting = {
      id: inner.id,
      dimensions: inner.dimensions,
      embed: (texts: readonly string[]) => {
        embedded += texts.length;
        return inner.embed(texts);
      },
    };
    const { memory } = setup({ embedder: counting });
    memory.remember(ada, 'I live in Lisbon.');
    await memory.idle();
    embedded = 0;
    expect(await memory.recall(bob, 'where do I live')).toEqual([]);
    expect(embedded).toBe(0);
    expect((await memory.recall(ada, 'where do I live')).length).toBe(1);
    expect(embedded).toBe(1);
  });
});

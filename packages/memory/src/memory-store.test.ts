import { randomUUID } from 'node:crypto';
import { createHashedEmbedder, createMemoryVectorStore, createQdrantVectorStore } from '@svc/semantic';
import { startFakeQdrantServer } from '@svc/semantic/test';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, type MemoryRecordStore, type StoredMemory } from './memory-store.js';

/** An in-process record store with the repository's contract (the db conformance suite covers the real one). */
function recordStore(): MemoryRecordStore {
  const rows: StoredMemory[] = [];
  return {
    async insertMany(batch) {
      for (const row of batch) rows.push({ ...row, entities: [...row.entities] });
      return batch.length;
    },
    async getMany(orgId, ids) {
      return rows.filter((row) => row.orgId === orgId && ids.includes(row.id));
    },
    async listRecent(orgId) {
      return rows.filter((row) => row.orgId === orgId).reverse();
    },
  };
}

function setup() {
  let time = Date.UTC(2026, 0, 1);
  const clock = () => time;
  const memory = createMemoryStore({ records: recordStore(), vectors: createMemoryVectorStore(), embedder: createHashedEmbedder(), now: clock });
  return { memory, advance: (ms: number) => (time += ms) };
}

describe('createMemoryStore', () => {
  it('recalls what an organisation said, ranked by relevance, never for another organisation', async () => {
    const { memory } = setup();
    memory.remember('org-a', 'c1', 'My favourite colour is teal and I live in Lisbon.', 'user');
    memory.remember('org-a', 'c1', 'The quarterly budget for marketing is 40k euros.', 'user');
    await memory.idle();

    const found = await memory.recall('org-a', 'what is my favourite colour?');
    expect(found[0]?.text).toContain('teal');
    expect(found[0]?.entities).toContainEqual({ type: 'place', value: 'Lisbon' });
    expect(await memory.recall('org-b', 'what is my favourite colour?')).toEqual([]);
  });

  it('keeps to one conversation when asked', async () => {
    const { memory } = setup();
    memory.remember('org-a', 'c1', 'The project codename is Bluebird.', 'user');
    memory.remember('org-a', 'c2', 'The project codename is Redwing.', 'user');
    await memory.idle();
    const found = await memory.recall('org-a', 'project codename', { conversationId: 'c2' });
    expect(found.map((m) => m.text)).toEqual(['The project codename is Redwing.']);
  });

  it('prefers the more recent of two equally relevant memories', async () => {
    const { memory, advance } = setup();
    memory.remember('org-a', undefined, 'The office wifi password is alpha.', 'user');
    await memory.idle();
    advance(90 * 86_400_000);
    memory.remember('org-a', undefined, 'The office wifi password is alpha.', 'user');
    await memory.idle();
    const [first, second] = await memory.recall('org-a', 'office wifi password');
    expect(first!.createdAt.getTime()).toBeGreaterThan(second!.createdAt.getTime());
    expect(first!.score).toBeGreaterThan(second!.score);
  });

  it('drops stores beyond its bound and ignores blank text', async () => {
    const memory = createMemoryStore({
      records: recordStore(),
      vectors: createMemoryVectorStore(),
      embedder: createHashedEmbedder(),
      maxPending: 1,
    });
    expect(memory.remember('org-a', undefined, '   ', 'user')).toBe(false);
    expect(memory.remember('org-a', undefined, 'one', 'user')).toBe(true);
    expect(memory.remember('org-a', undefined, 'two', 'user')).toBe(false);
    await memory.idle();
    expect(memory.stats()).toEqual({ pending: 0, dropped: 1, failed: 0 });
  });

  it('writes records in batches, recalls queued ones before they are written and never reads the database for points that carry their record', async () => {
    const records = recordStore();
    const calls = { insertMany: [] as number[], getMany: 0 };
    const counted: MemoryRecordStore = {
      insertMany: async (rows) => {
        calls.insertMany.push(rows.length);
        return records.insertMany(rows);
      },
      getMany: async (orgId, ids) => {
        calls.getMany++;
        return records.getMany(orgId, ids);
      },
      listRecent: records.listRecent,
    };
    const memory = createMemoryStore({ records: counted, vectors: createMemoryVectorStore(), embedder: createHashedEmbedder(), flushMs: 60_000 });
    memory.remember('org-a', 'c1', 'The staging database lives in Frankfurt.', 'user');
    memory.remember('org-a', 'c1', 'Noted: staging is in Frankfurt.', 'assistant');
    memory.remember('org-b', undefined, 'Our office is in Oslo.', 'user');
    await new Promise((resolve) => setTimeout(resolve, 10)); // embedded and indexed; the batch waits
    expect(calls.insertMany).toEqual([]);
    const early = await memory.recall('org-a', 'where is the staging database?', { conversationId: 'c1' });
    expect(early.map((m) => m.role).sort()).toEqual(['assistant', 'user']);
    await memory.idle();
    expect(calls.insertMany).toEqual([3]);
    const found = await memory.recall('org-a', 'where is the staging database?');
    expect(found[0]).toMatchObject({ conversationId: 'c1', entities: expect.arrayContaining([{ type: 'place', value: 'Frankfurt' }]) });
    expect(calls.getMany).toBe(0);
  });

  it('recalls through Qdrant: a memory point has the shape a remote store checks before serving it', async () => {
    const qdrant = await startFakeQdrantServer();
    const embedder = createHashedEmbedder();
    const vectors = createQdrantVectorStore({ url: qdrant.url, dimensions: embedder.dimensions, collection: `memory_test_${randomUUID().slice(0, 8)}` });
    try {
      const memory = createMemoryStore({ records: recordStore(), vectors, embedder });
      memory.remember('org-a', 'c1', 'The release train leaves every Thursday.', 'user');
      await memory.idle();
      const [found] = await memory.recall('org-a', 'when does the release train leave?');
      expect(found).toMatchObject({ text: 'The release train leaves every Thursday.', role: 'user', conversationId: 'c1' });
    } finally {
      await vectors.close();
      await qdrant.close();
    }
  });
});

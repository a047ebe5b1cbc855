import { randomUUID } from 'node:crypto';
import { createHashedEmbedder, createMemoryVectorStore } from '@svc/semantic';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, type MemoryRecordStore, type StoredMemory } from './memory-store.js';

/** An in-process record store with the repository's contract (the db conformance suite covers the real one). */
function recordStore(clock: () => number): MemoryRecordStore {
  const rows: StoredMemory[] = [];
  return {
    async insert(orgId, memory) {
      const row: StoredMemory = {
        id: memory.id ?? randomUUID(),
        orgId,
        conversationId: memory.conversationId ?? null,
        role: memory.role,
        text: memory.text,
        entities: [...(memory.entities ?? [])],
        createdAt: new Date(clock()),
      };
      rows.push(row);
      return row;
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
  const memory = createMemoryStore({ records: recordStore(clock), vectors: createMemoryVectorStore(), embedder: createHashedEmbedder(), now: clock });
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
      records: recordStore(Date.now),
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
});

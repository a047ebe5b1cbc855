import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VectorPayload, VectorPoint, VectorStore } from '../store/interface.js';
import { axisVector, cachedAnswer } from './fixtures.js';

export interface VectorStoreConformanceOptions {
  /** Vector length the store was created for (default 8). */
  dimensions?: number;
}

/**
 * The behaviour every {@link VectorStore} backend must have. Registers a vitest
 * `describe(name)` block; `create` is called before each test and must return an empty,
 * isolated store (e.g. a fresh Qdrant collection). After each test the suite purges the store
 * (`deleteByOrg()`, which drops a Qdrant collection) and closes it.
 */
export function runVectorStoreConformance(name: string, create: () => Promise<VectorStore>, options: VectorStoreConformanceOptions = {}): void {
  const d = options.dimensions ?? 8;
  const future = () => Date.now() + 3_600_000;
  const point = (vector: Float32Array, payload: Partial<VectorPayload> = {}, id = randomUUID()): VectorPoint => ({
    id,
    vector,
    payload: { orgId: 'org-a', scope: 'scope-1', expiresAt: future(), text: 'question', answer: cachedAnswer('answer'), ...payload },
  });
  const query = { orgId: 'org-a', scope: 'scope-1', limit: 5, minScore: -1 };

  describe(name, () => {
    let store: VectorStore;
    beforeEach(async () => {
      store = await create();
    });
    afterEach(async () => {
      await store.deleteByOrg();
      await store.close();
    });

    it('answers ping and starts empty', async () => {
      expect(await store.ping()).toBe(true);
      expect(await store.count()).toBe(0);
      expect(await store.search(axisVector(d, 0), query)).toEqual([]);
    });

    it('returns the nearest points best first, with cosine scores and the payload intact', async () => {
      const near = point(axisVector(d, 0, 0.1), { text: 'near', answer: cachedAnswer('near answer') });
      const far = point(axisVector(d, 0, 1), { text: 'far' });
      const other = point(axisVector(d, 3), { text: 'orthogonal' });
      await store.upsert([far, other, near]);
      const found = await store.search(axisVector(d, 0), query);
      expect(found.map((m) => m.id)).toEqual([near.id, far.id, other.id]);
      expect(found[0]!.score).toBeCloseTo(1 / Math.sqrt(1.01), 4);
      expect(found[1]!.score).toBeCloseTo(1 / Math.sqrt(2), 4);
      expect(found[2]!.score).toBeCloseTo(0, 4);
      expect(found[0]!.payload).toEqual(near.payload);
    });

    it('passes a point’s meta through untouched (the memory store keeps its records there)', async () => {
      const meta = { role: 'user', conversationId: null, entities: [{ type: 'place', value: 'Oslo' }], createdAt: 1_767_225_600_000 };
      const withMeta = point(axisVector(d, 0), { meta });
      await store.upsert([withMeta]);
      const [found] = await store.search(axisVector(d, 0), query);
      expect(found!.payload.meta).toEqual(meta);
    });

    it('compares by cosine: scaling a vector changes nothing', async () => {
      const scaled = axisVector(d, 1).map((x) => x * 7.5);
      await store.upsert([point(scaled)]);
      const [match] = await store.search(axisVector(d, 1).map((x) => x * 0.2), query);
      expect(match?.score).toBeCloseTo(1, 4);
    });

    it('honours limit and minScore', async () => {
      await store.upsert([point(axisVector(d, 0)), point(axisVector(d, 0, 0.2)), point(axisVector(d, 0, 0.5)), point(axisVector(d, 0, 2))]);
      expect(await store.search(axisVector(d, 0), { ...query, limit: 2 })).toHaveLength(2);
      const strict = await store.search(axisVector(d, 0), { ...query, minScore: 0.95 });
      expect(strict).toHaveLength(2);
      for (const m of strict) expect(m.score).toBeGreaterThanOrEqual(0.95);
    });

    it('never returns another organisation’s or another scope’s points', async () => {
      const v = axisVector(d, 2);
      await store.upsert([point(v, { orgId: 'org-b', text: 'b' }), point(v, { scope: 'scope-2', text: 'other scope' }), point(v, { text: 'mine' })]);
      const found = await store.search(v, query);
      expect(found.map((m) => m.payload.text)).toEqual(['mine']);
      expect((await store.search(v, { ...query, orgId: 'org-b' })).map((m) => m.payload.text)).toEqual(['b']);
      expect(await store.search(v, { ...query, orgId: 'org-c' })).toEqual([]);
    });

    it('neither returns nor counts expired points', async () => {
      const v = axisVector(d, 4);
      await store.upsert([point(v, { expiresAt: Date.now() - 1, text: 'stale' }), point(v, { text: 'fresh' })]);
      expect((await store.search(v, query)).map((m) => m.payload.text)).toEqual(['fresh']);
      expect(await store.count()).toBe(1);
    });

    it('replaces a point upserted again under the same id', async () => {
      const id = randomUUID();
      await store.upsert([point(axisVector(d, 5), { text: 'first' }, id)]);
      await store.upsert([point(axisVector(d, 5), { text: 'second', answer: cachedAnswer('second answer') }, id)]);
      const found = await store.search(axisVector(d, 5), query);
      expect(found).toHaveLength(1);
      expect(found[0]!.id).toBe(id);
      expect(found[0]!.payload.text).toBe('second');
      expect(found[0]!.payload.answer.result.choices[0]!.message.content).toBe('second answer');
      expect(await store.count()).toBe(1);
    });

    it('keeps subjects apart when a search names one, and deletes by ids or by subject within one organisation', async () => {
      const v = axisVector(d, 7);
      const ada = point(v, { subject: 'u:ada', text: 'ada' });
      const ada2 = point(v, { subject: 'u:ada', text: 'ada 2' });
      const bob = point(v, { subject: 'u:bob', text: 'bob' });
      const other = point(v, { orgId: 'org-b', subject: 'u:ada', text: 'other org' });
      await store.upsert([ada, ada2, bob, other]);
      expect((await store.search(v, { ...query, subject: 'u:ada' })).map((m) => m.payload.text).sort()).toEqual(['ada', 'ada 2']);
      expect((await store.search(v, { ...query, subject: 'u:bob' })).map((m) => m.payload.subject)).toEqual(['u:bob']);
      expect(await store.search(v, { ...query, subject: 'u:nobody' })).toEqual([]);
      expect(await store.search(v, query)).toHaveLength(3);
      // Another organisation's ids and subjects are out of reach.
      await store.deletePoints('org-b', { ids: [ada.id] });
      await store.deletePoints('org-b', { subject: 'u:bob' });
      expect(await store.count('org-a')).toBe(3);
      await store.deletePoints('org-a', { ids: [ada.id] });
      expect((await store.search(v, query)).map((m) => m.id).sort()).toEqual([ada2.id, bob.id].sort());
      await store.deletePoints('org-a', { subject: 'u:ada' });
      expect((await store.search(v, query)).map((m) => m.id)).toEqual([bob.id]);
      expect(await store.count('org-b')).toBe(1);
    });

    it('purges one organisation, then all', async () => {
      const v = axisVector(d, 6);
      await store.upsert([point(v), point(v, { scope: 'scope-2' }), point(v, { orgId: 'org-b' }), point(v, { orgId: 'org-c' })]);
      expect(await store.count('org-a')).toBe(2);
      await store.deleteByOrg('org-a');
      expect(await store.count('org-a')).toBe(0);
      expect(await store.search(v, query)).toEqual([]);
      expect(await store.count()).toBe(2);
      await store.deleteByOrg();
      expect(await store.count()).toBe(0);
      // Still usable after a full purge.
      await store.upsert([point(v)]);
      expect(await store.search(v, query)).toHaveLength(1);
    });
  });
}

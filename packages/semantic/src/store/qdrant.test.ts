import { randomUUID } from 'node:crypto';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { axisVector, cachedAnswer, startFakeQdrantServer } from '../test/index.js';
import type { VectorPoint } from './interface.js';
import { createQdrantVectorStore } from './qdrant.js';

const fake = await startFakeQdrantServer();
afterAll(() => fake.close());
const d = 8;
const point = (orgId: string, expiresAt = Date.now() + 60_000): VectorPoint => ({
  id: randomUUID(),
  vector: axisVector(d, 0),
  payload: { orgId, scope: 's', expiresAt, text: 'q', answer: cachedAnswer('a') },
});
const collection = () => `svc_test_${randomUUID()}`;

describe('qdrant vector store', () => {
  beforeEach(() => {
    fake.requests.length = 0;
    fake.failing = false;
  });

  it('connects on first use only, then creates the collection (cosine, the embedder’s size) and its payload indexes', async () => {
    const name = collection();
    const store = createQdrantVectorStore({ url: fake.url, dimensions: d, collection: name });
    expect(fake.requests).toEqual([]);
    await store.upsert([point('org-a')]);
    const calls = fake.requests.map((r) => `${r.method} ${r.path.split('?')[0]}`);
    expect(calls.slice(0, 2)).toEqual([`GET /collections/${name}/exists`, `PUT /collections/${name}`]);
    expect(fake.requests[1]!.body).toMatchObject({ vectors: { size: d, distance: 'Cosine' } });
    const indexes = fake.requests.filter((r) => r.path.startsWith(`/collections/${name}/index`)).map((r) => r.body);
    expect(indexes).toEqual([
      { field_name: 'orgId', field_schema: { type: 'keyword', is_tenant: true } },
      { field_name: 'scope', field_schema: 'keyword' },
      { field_name: 'subject', field_schema: 'keyword' },
      { field_name: 'expiresAt', field_schema: { type: 'integer', lookup: false, range: true } },
    ]);
    await store.upsert([point('org-a')]);
    expect(fake.requests.filter((r) => r.path.endsWith('/exists'))).toHaveLength(1);
    await store.close();
  });

  it('filters every search by organisation, scope and expiry', async () => {
    const store = createQdrantVectorStore({ url: fake.url, dimensions: d, collection: collection(), now: () => 1234 });
    await store.search(axisVector(d, 0), { orgId: 'org-a', scope: 's', limit: 3, minScore: 0.9 });
    const query = fake.requests.find((r) => r.path.endsWith('/points/query'));
    expect(query?.body).toMatchObject({
      filter: { must: [{ key: 'orgId', match: { value: 'org-a' } }, { key: 'scope', match: { value: 's' } }, { key: 'expiresAt', range: { gt: 1234 } }] },
      limit: 3,
      score_threshold: 0.9,
      with_payload: true,
    });
    await store.close();
  });

  it('refuses an existing collection of another vector size', async () => {
    const name = collection();
    const small = createQdrantVectorStore({ url: fake.url, dimensions: 4, collection: name });
    await small.count();
    const store = createQdrantVectorStore({ url: fake.url, dimensions: d, collection: name });
    await expect(store.count()).rejects.toThrow(/size 4.*makes 8/);
    await small.deleteByOrg();
  });

  it('skips payloads it did not write instead of serving them', async () => {
    const name = collection();
    const store = createQdrantVectorStore({ url: fake.url, dimensions: d, collection: name });
    await store.count();
    const raw = new QdrantClient({ url: fake.url, checkCompatibility: false });
    await raw.upsert(name, { wait: true, points: [{ id: randomUUID(), vector: Array.from(axisVector(d, 0)), payload: { orgId: 'org-a', scope: 's', expiresAt: Date.now() + 60_000, text: 'q', answer: 'not an answer' } }] });
    expect(await store.search(axisVector(d, 0), { orgId: 'org-a', scope: 's', limit: 3, minScore: 0 })).toEqual([]);
    await store.deleteByOrg();
  });

  it('sweeps expired points in the background', async () => {
    const store = createQdrantVectorStore({ url: fake.url, dimensions: d, collection: collection(), cleanupIntervalMs: 20 });
    await store.upsert([point('org-a', Date.now() - 1)]);
    await new Promise((resolve) => setTimeout(resolve, 80));
    const sweep = fake.requests.find((r) => r.path.includes('/points/delete'));
    expect(sweep?.body).toMatchObject({ filter: { must: [{ key: 'expiresAt', range: { lt: expect.any(Number) } }] } });
    await store.deleteByOrg();
    await store.close();
  });

  it('rejects while Qdrant fails and recovers without a restart', async () => {
    const store = createQdrantVectorStore({ url: fake.url, dimensions: d, collection: collection() });
    fake.failing = true;
    await expect(store.upsert([point('org-a')])).rejects.toThrow();
    expect(await store.ping()).toBe(false);
    fake.failing = false;
    await store.upsert([point('org-a')]);
    expect(await store.count('org-a')).toBe(1);
    expect(await store.ping()).toBe(true);
    await store.deleteByOrg();
  });

  it('with Qdrant down: ping is false and calls reject quickly, never hang', async () => {
    const store = createQdrantVectorStore({ url: 'http://127.0.0.1:1', dimensions: d, timeoutMs: 500 });
    const started = Date.now();
    expect(await store.ping()).toBe(false);
    await expect(store.search(axisVector(d, 0), { orgId: 'o', scope: 's', limit: 1, minScore: 0 })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1500);
    await store.close();
    await expect(store.count()).rejects.toThrow(/closed/);
  });

  it('needs a url or a client', async () => {
    const store = createQdrantVectorStore({ dimensions: d });
    await expect(store.count()).rejects.toThrow(/QDRANT_URL/);
    expect(await store.ping()).toBe(false);
  });
});

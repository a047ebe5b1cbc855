import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { axisVector, cachedAnswer } from '../test/index.js';
import type { VectorPoint } from './interface.js';
import { createMemoryVectorStore } from './memory.js';

const d = 8;
const point = (axis: number, text: string, expiresAt: number, orgId = 'org-a'): VectorPoint => ({
  id: randomUUID(),
  vector: axisVector(d, axis),
  payload: { orgId, scope: 's', expiresAt, text, answer: cachedAnswer(text) },
});
const query = { orgId: 'org-a', scope: 's', limit: 10, minScore: 0.5 };

describe('memory vector store', () => {
  it('expires points by the injected clock', async () => {
    let t = 1_000_000;
    const store = createMemoryVectorStore({ now: () => t });
    await store.upsert([point(0, 'short', t + 1000), point(0, 'long', t + 60_000)]);
    expect((await store.search(axisVector(d, 0), query)).map((m) => m.payload.text).sort()).toEqual(['long', 'short']);
    t += 1000;
    expect((await store.search(axisVector(d, 0), query)).map((m) => m.payload.text)).toEqual(['long']);
    expect(await store.count()).toBe(1);
  });

  it('keeps at most `capacity` points, evicting the least recently stored or hit', async () => {
    const store = createMemoryVectorStore({ capacity: 3 });
    const far = Date.now() + 60_000;
    await store.upsert([point(0, 'first', far), point(1, 'second', far), point(2, 'third', far)]);
    // A hit on `first` makes `second` the least recently used.
    expect(await store.search(axisVector(d, 0), query)).toHaveLength(1);
    await store.upsert([point(3, 'fourth', far)]);
    expect(await store.count()).toBe(3);
    expect(await store.search(axisVector(d, 1), query)).toEqual([]);
    expect((await store.search(axisVector(d, 0), query)).map((m) => m.payload.text)).toEqual(['first']);
  });

  it('counts per organisation across scopes, and neither the stored point nor a match changes what it stores', async () => {
    const store = createMemoryVectorStore();
    const far = Date.now() + 60_000;
    const a = point(0, 'a', far);
    await store.upsert([a, point(0, 'b', far, 'org-b')]);
    expect(await store.count('org-a')).toBe(1);
    a.payload.text = 'changed by the caller';
    const [match] = await store.search(axisVector(d, 0), query);
    expect(match!.payload.text).toBe('a');
    // Matches are the store's read-only copies: a change throws.
    expect(() => {
      match!.payload.text = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      match!.payload.answer.result.choices[0]!.message.content = 'changed';
    }).toThrow(TypeError);
    expect((await store.search(axisVector(d, 0), query))[0]!.payload.answer.result.choices[0]!.message.content).toBe(a.payload.answer.result.choices[0]!.message.content);
  });

  it('ping turns false once closed', async () => {
    const store = createMemoryVectorStore();
    expect(await store.ping()).toBe(true);
    await store.close();
    expect(await store.ping()).toBe(false);
  });
});

import { seededRandom } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { cachedAnswer } from '../test/index.js';
import type { VectorPoint } from './interface.js';
import { createMemoryVectorStore } from './memory.js';

const d = 16;
const unit = (next: () => number) => {
  const v = Float32Array.from({ length: d }, () => next() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('memory vector store: one subject searched by its own rows', () => {
  it('finds exactly what a scan of every point filtered by subject finds, after deletions, moves between subjects and expiry, past the SIMD size', async () => {
    const next = seededRandom(7);
    let now = 1_000_000;
    const store = createMemoryVectorStore({ capacity: 10_000, now: () => now });
    const live = new Map<string, { vector: Float32Array; subject: string; expiresAt: number }>();
    const put = async (id: string, subject: string) => {
      const vector = unit(next);
      const expiresAt = now + (next() < 0.1 ? 10 : 60_000);
      const point: VectorPoint = { id, vector, payload: { orgId: 'org', scope: 'memory', subject, expiresAt, text: id, answer: cachedAnswer(id) } };
      await store.upsert([point]);
      live.set(id, { vector, subject, expiresAt });
    };
    for (let i = 0; i < 1_500; i++) await put(`p${i}`, `u${i % 40}`);
    for (let i = 0; i < 1_500; i += 7) {
      await store.deletePoints('org', { ids: [`p${i}`] });
      live.delete(`p${i}`);
    }
    for (let i = 3; i < 1_500; i += 11) if (live.has(`p${i}`)) await put(`p${i}`, `u${(i + 1) % 40}`);
    now += 100; // the short-lived tenth expires
    for (const subject of ['u0', 'u1', 'u17', 'u39', 'nobody']) {
      const query = unit(next);
      const expected = [...live.entries()]
        .filter(([, p]) => p.subject === subject && p.expiresAt > now)
        .map(([id, p]) => ({ id, score: dot(query, p.vector) }))
        .filter((m) => m.score >= -0.2)
        .sort((a, b) => b.score - a.score)
        .slice(0, 12);
      const found = await store.search(query, { orgId: 'org', scope: 'memory', subject, limit: 12, minScore: -0.2 });
      expect(found.map((m) => m.id)).toEqual(expected.map((m) => m.id));
      for (const [i, m] of found.entries()) expect(m.score).toBeCloseTo(expected[i]!.score, 5);
      expect(found.every((m) => m.payload.subject === subject)).toBe(true);
    }
  });
});

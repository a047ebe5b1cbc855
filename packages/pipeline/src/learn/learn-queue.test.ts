import { describe, expect, it } from 'vitest';
import { type DecisionRecord, LearnQueue, type UsageEvent } from './learn-queue.js';

const usage = (requestId: string): UsageEvent => ({
  requestId, orgId: 'o', keyId: 'k', model: 'm', provider: 'p', promptTokens: 1, completionTokens: 1, cachedTokens: 0,
  costUsd: 0, baselineCostUsd: 0, cacheHit: false, latencyMs: 1, status: 200, stream: false, createdAt: new Date(),
});
const decision = (requestId: string): DecisionRecord => ({
  requestId, orgId: 'o', requestedModel: 'm', model: 'm', provider: 'p', tier: 'T2', lane: 'smart', source: 's', taskFamily: null,
  intelligenceMode: 'full', attempts: [], candidates: [], outcome: 'ok', details: {}, latencyMs: 1, createdAt: new Date(),
});

describe('LearnQueue', () => {
  it('writes in batches off the response path and flushes everything on close', async () => {
    const written: UsageEvent[][] = [];
    const queue = new LearnQueue({ batchSize: 2, flushIntervalMs: 10_000, writer: { writeUsage: async (e) => void written.push(e), writeDecisions: async () => {} } });
    for (const id of ['a', 'b', 'c']) queue.recordUsage(usage(id));
    expect(written).toEqual([]);
    await queue.close();
    expect(written.map((batch) => batch.map((e) => e.requestId))).toEqual([['a', 'b'], ['c']]);
    expect(queue.stats()).toMatchObject({ queued: 0, processed: 3, failures: 0, lastErrorAt: null });
    expect(queue.stats().lastFlushAt).toBeGreaterThan(Date.now() - 5_000);
  });

  it('reports its backlog: entries per kind and when the oldest was recorded', async () => {
    const queue = new LearnQueue({ flushIntervalMs: 60_000, writer: { writeUsage: async () => {}, writeDecisions: async () => {} } });
    expect(await queue.backlog()).toEqual({ scope: 'instance', usage: 0, decisions: 0, oldestPendingAt: null });
    queue.recordUsage({ ...usage('old'), createdAt: new Date('2026-01-01T00:00:00Z') });
    queue.recordUsage(usage('new'));
    queue.recordDecision({ ...decision('d'), createdAt: new Date('2026-01-01T00:00:05Z') });
    expect(queue.lastBacklog()).toEqual({ scope: 'instance', usage: 2, decisions: 1, oldestPendingAt: Date.parse('2026-01-01T00:00:00Z') });
    await queue.close();
    expect((await queue.backlog()).usage).toBe(0);
  });

  it('keeps a failed batch and retries it, losing nothing', async () => {
    let fail = true;
    const stored: string[] = [];
    const queue = new LearnQueue({
      flushIntervalMs: 5,
      writer: {
        writeUsage: async (events) => {
          if (fail) throw new Error('db down');
          stored.push(...events.map((e) => e.requestId));
        },
        writeDecisions: async (rows) => void stored.push(...rows.map((r) => `d:${r.requestId}`)),
      },
    });
    queue.recordUsage(usage('x'));
    queue.recordDecision(decision('x'));
    await queue.flush();
    expect(queue.stats()).toMatchObject({ queued: 2, failures: 1, lastFlushAt: null });
    expect(queue.stats().lastErrorAt).toBeGreaterThan(Date.now() - 5_000);
    fail = false;
    await queue.close();
    expect(stored.sort()).toEqual(['d:x', 'x']);
  });

  it('flushes by itself after the interval', async () => {
    const stored: string[] = [];
    const queue = new LearnQueue({ flushIntervalMs: 5, writer: { writeUsage: async (e) => void stored.push(...e.map((x) => x.requestId)), writeDecisions: async () => {} } });
    queue.recordUsage(usage('t'));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(stored).toEqual(['t']);
    await queue.close();
  });
});

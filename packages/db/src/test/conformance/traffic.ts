import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { NewRoutingDecision, NewUsageEvent } from '../../types.js';
import { createTestOrg, type GetDb } from '../fixtures.js';

const day = (d: number, hour = 12) => new Date(Date.UTC(2026, 2, d, hour));

function decision(orgId: string, requestId: string, createdAt: Date, overrides: Partial<NewRoutingDecision> = {}): NewRoutingDecision {
  return { requestId, orgId, model: 'openai/gpt-4o-mini', provider: 'openai', source: 'Router', outcome: 'ok', latencyMs: 100, createdAt, ...overrides };
}

function spend(orgId: string, requestId: string, createdAt: Date, overrides: Partial<NewUsageEvent> = {}): NewUsageEvent {
  return {
    requestId,
    orgId,
    model: 'openai/gpt-4o-mini',
    provider: 'openai',
    promptTokens: 10,
    completionTokens: 5,
    costUsd: 0.01,
    baselineCostUsd: 0.05,
    latencyMs: 100,
    status: 200,
    createdAt,
    ...overrides,
  };
}

/**
 * One organisation's traffic on 2026-03-02 and 03-03: routed answers (one with a re-ask row),
 * an exact and a semantic cache hit, a failure, a client that left, a fallback, an embeddings
 * request (ledger only), and a request outside the window.
 */
async function seed(getDb: GetDb) {
  const db = getDb();
  const org = await createTestOrg(db, 'traffic');
  const id = () => `req_${randomUUID()}`;
  const [a, b, c, exact, semantic, failed, closed, embed, old] = Array.from({ length: 9 }, id);
  await db.decisions.insertMany([
    decision(org.id, a!, day(2), { latencyMs: 100, taskFamily: 'code', details: { workflowType: 'agentic' } }),
    decision(org.id, b!, day(2), { latencyMs: 200, taskFamily: 'code', details: { workflowType: 'agentic' }, attempts: [{ outcome: 'error' }, { outcome: 'ok' }] }),
    decision(org.id, c!, day(3), { latencyMs: 300, model: 'anthropic/claude-3-5-haiku', provider: 'anthropic', taskFamily: 'chat', details: { workflowType: 'chat' } }),
    decision(org.id, exact!, day(3), { latencyMs: 2, source: 'CacheHit', details: { cacheLayer: 'l1' } }),
    decision(org.id, semantic!, day(3), { latencyMs: 4, source: 'CacheHit', details: { cacheLayer: 'semantic' } }),
    decision(org.id, failed!, day(3), { latencyMs: 900, outcome: 'error', taskFamily: 'chat', details: { workflowType: 'chat' } }),
    decision(org.id, closed!, day(3), { latencyMs: 50, outcome: 'client_closed', taskFamily: 'chat', details: { workflowType: 'chat' } }),
    decision(org.id, old!, day(1), { latencyMs: 5_000 }),
  ]);
  await db.usage.insertMany([
    spend(org.id, a!, day(2)),
    spend(org.id, b!, day(2), { costUsd: 0.02, baselineCostUsd: 0.1 }),
    spend(org.id, `${b}:reask`, day(2), { promptTokens: 20, completionTokens: 10, costUsd: 0.03, baselineCostUsd: 0.03 }),
    spend(org.id, c!, day(3), { model: 'anthropic/claude-3-5-haiku', provider: 'anthropic', costUsd: 0.04, baselineCostUsd: 0.04 }),
    spend(org.id, exact!, day(3), { costUsd: 0, baselineCostUsd: 0.05, cacheHit: true, cachedTokens: 10 }),
    spend(org.id, semantic!, day(3), { costUsd: 0, baselineCostUsd: 0.05, cacheHit: true, cachedTokens: 10 }),
    spend(org.id, embed!, day(3), { model: 'openai/text-embedding-3-small', promptTokens: 100, completionTokens: 0, costUsd: 0.001, baselineCostUsd: 0.001, latencyMs: 40 }),
    spend(org.id, old!, day(1), { costUsd: 9 }),
  ]);
  return { org, window: { since: day(2, 0), until: day(4, 0) } };
}

export function trafficConformance(getDb: GetDb): void {
  it('sums an organisation\u2019s requests, outcomes, cache hits, tokens, spend and latency over a window', async () => {
    const { org, window } = await seed(getDb);
    const summary = await getDb().traffic.summary({ ...window, orgId: org.id });
    expect(summary).toMatchObject({
      requests: 8,
      succeeded: 6,
      failed: 1,
      clientClosed: 1,
      fallbacks: 1,
      cacheHits: 2,
      exactHits: 1,
      semanticHits: 1,
      promptTokens: 10 + 10 + 20 + 10 + 10 + 10 + 100,
      completionTokens: 5 + 5 + 10 + 5 + 5 + 5,
      cachedTokens: 20,
    });
    expect(summary.costUsd).toBeCloseTo(0.01 + 0.02 + 0.03 + 0.04 + 0.001, 10);
    expect(summary.baselineCostUsd).toBeCloseTo(0.05 + 0.1 + 0.03 + 0.04 + 0.05 + 0.05 + 0.001, 10);
    // Succeeded latencies: 2, 4, 40, 100, 200, 300 ms.
    expect(summary.latencyMeanMs).toBeCloseTo(646 / 6, 6);
    expect(summary.latencyP50Ms).toBeCloseTo(70, 6);
    expect(summary.latencyP99Ms).toBeGreaterThan(290);
    expect(summary.latencyP99Ms).toBeLessThanOrEqual(300);
  });

  it('reads the fleet without an organisation, and nothing for an unknown or malformed one', async () => {
    const { org, window } = await seed(getDb);
    const other = await createTestOrg(getDb(), 'traffic-other');
    await getDb().decisions.insertMany([decision(other.id, `req_${randomUUID()}`, day(2))]);
    const fleet = await getDb().traffic.summary(window);
    const own = await getDb().traffic.summary({ ...window, orgId: org.id });
    expect(fleet.requests).toBeGreaterThanOrEqual(own.requests + 1);
    expect(await getDb().traffic.summary({ ...window, orgId: randomUUID() })).toMatchObject({ requests: 0, costUsd: 0, latencyP50Ms: null });
    expect((await getDb().traffic.summary({ ...window, orgId: 'not-a-uuid' })).requests).toBe(0);
  });

  it('groups by workflow type and task family, costliest first', async () => {
    const { org, window } = await seed(getDb);
    const rows = await getDb().traffic.workloads({ ...window, orgId: org.id });
    const agentic = rows.find((r) => r.workflowType === 'agentic' && r.taskFamily === 'code')!;
    expect(agentic).toMatchObject({ requests: 2, succeeded: 2, promptTokens: 40, completionTokens: 20, latencyMeanMs: 150 });
    expect(agentic.costUsd).toBeCloseTo(0.06, 10);
    expect(agentic.baselineCostUsd - agentic.costUsd).toBeCloseTo(0.12, 10);
    expect(rows.find((r) => r.workflowType === 'chat' && r.taskFamily === 'chat')).toMatchObject({ requests: 3, succeeded: 1, failed: 1, clientClosed: 1, latencyMeanMs: 300 });
    // Cache hits and the embeddings request have no classification.
    expect(rows.find((r) => r.workflowType === null && r.taskFamily === null)).toMatchObject({ requests: 3, cacheHits: 2 });
    expect(rows[0]).toBe(agentic);
    expect(rows.reduce((sum, r) => sum + r.requests, 0)).toBe(8);
  });

  it('groups by UTC day and served model', async () => {
    const { org, window } = await seed(getDb);
    const rows = await getDb().traffic.dailyByModel({ ...window, orgId: org.id });
    expect(rows.map((r) => [r.day, r.model, r.requests])).toEqual([
      ['2026-03-02', 'openai/gpt-4o-mini', 2],
      ['2026-03-03', 'anthropic/claude-3-5-haiku', 1],
      ['2026-03-03', 'openai/gpt-4o-mini', 4],
      ['2026-03-03', 'openai/text-embedding-3-small', 1],
    ]);
    expect(rows[2]).toMatchObject({ cacheHits: 2, failed: 1, clientClosed: 1, succeeded: 2, latencyMeanMs: 3 });
    expect(rows[0]!.costUsd).toBeCloseTo(0.06, 10);
  });
}

import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { NewRoutingDecision, NewUsageEvent } from '../../types.js';
import { createTestOrg, type GetDb } from '../fixtures.js';

// Each test uses its own year, so periods see only its rows.
const at = (minute: number) => new Date(Date.UTC(2014, 8, 9, 10, minute));
const period = { since: at(0), until: at(59) };
const ada = `u:${'a'.repeat(32)}`;

function spend(orgId: string, requestId: string, minute: number, overrides: Partial<NewUsageEvent> = {}): NewUsageEvent {
  const base = { requestId, orgId, keyId: 'key-a', model: 'openai/gpt-4o-mini', provider: 'openai', promptTokens: 10, completionTokens: 5 };
  return { ...base, costUsd: 0.01, baselineCostUsd: 0.05, latencyMs: 100, status: 200, createdAt: at(minute), ...overrides };
}

function decision(orgId: string, requestId: string, minute: number, overrides: Partial<NewRoutingDecision> = {}): NewRoutingDecision {
  return { requestId, orgId, model: 'openai/gpt-4o-mini', provider: 'openai', tier: 'economy', source: 'Router', outcome: 'ok', latencyMs: 100, createdAt: at(minute), ...overrides };
}

/** Five requests of one org (a routed answer with a re-ask row, an exact and a semantic hit, a failure with no spend, an embeddings row) and one of another org. */
async function seed(getDb: GetDb) {
  const db = getDb();
  const [org, other] = [await createTestOrg(db), await createTestOrg(db)];
  const [routed, exact, semantic, failed, embed, foreign] = Array.from({ length: 6 }, () => `req_${randomUUID()}`) as [string, string, string, string, string, string];
  await db.decisions.insertMany([
    decision(org.id, routed, 1, { latencyMs: 700, tier: 'premium', model: 'anthropic/claude-3-5-haiku', provider: 'anthropic' }),
    decision(org.id, exact, 2, { source: 'CacheHit', details: { cacheLayer: 'l1' } }),
    decision(org.id, semantic, 3, { source: 'CacheHit', details: { cacheLayer: 'semantic' } }),
    decision(org.id, failed, 4, { outcome: 'error', latencyMs: 900 }),
    decision(other.id, foreign, 5),
  ]);
  await db.usage.insertMany([
    spend(org.id, routed, 1, { model: 'anthropic/claude-3-5-haiku', provider: 'anthropic', costUsd: 0.2, endUser: ada, memoryInjected: 2, latencyMs: 700 }),
    spend(org.id, `${routed}:reask`, 1, { model: 'openai/gpt-4o-mini', costUsd: 0.05 }),
    spend(org.id, exact, 2, { costUsd: 0, cacheHit: true, endUser: ada, tags: { 'svc.guardrails': 'pii=redacted' } }),
    spend(org.id, semantic, 3, { costUsd: 0, cacheHit: true, keyId: 'key-b' }),
    spend(org.id, embed, 6, { model: 'openai/text-embedding-3-small', costUsd: 0.001, interactiveCostUsd: 0.002, keyId: 'key-b', tags: { batch_id: 'batch_1', team: 'x' } }),
    spend(other.id, foreign, 5, { costUsd: 9 }),
  ]);
  return { org, other, routed, exact, semantic, failed, embed, foreign };
}

export function requestLogConformance(getDb: GetDb): void {
  it('lists an organisation\'s requests newest first with routing, cache, memory, cost and status', async () => {
    const s = await seed(getDb);
    const { entries, next } = await getDb().requestLog.list({ ...period, orgId: s.org.id });
    expect(next).toBeNull();
    expect(entries.map((e) => e.requestId)).toEqual([s.embed, s.failed, s.semantic, s.exact, s.routed]);
    const [embed, failed, semantic, exact, routed] = entries;
    expect(routed).toMatchObject({ model: 'anthropic/claude-3-5-haiku', tier: 'premium', source: 'Router', cache: null, endUser: ada, memoryInjected: 2, status: 200, outcome: 'ok', keyId: 'key-a', hasDecision: true, latencyMs: 700 });
    // The re-ask row is part of the request's cost.
    expect(routed!.costUsd).toBeCloseTo(0.25, 10);
    expect(exact).toMatchObject({ cache: 'exact', source: 'CacheHit', costUsd: 0 });
    expect(semantic).toMatchObject({ cache: 'semantic', keyId: 'key-b', endUser: null, memoryInjected: null });
    // A request every candidate failed has a decision and no ledger row.
    expect(failed).toMatchObject({ status: null, outcome: 'error', keyId: null, costUsd: 0, latencyMs: 900 });
    expect(embed).toMatchObject({ source: null, tier: null, hasDecision: false, outcome: 'ok', status: 200, batchId: 'batch_1' });
    expect(routed!.batchId).toBeNull();
    // A line billed at a batch price keeps its interactive price beside its cost.
    expect(embed!.interactiveCostUsd).toBeCloseTo(0.002, 10);
    expect(routed!.interactiveCostUsd).toBeNull();
    expect(exact!.guardrails).toBe('pii=redacted');
    expect(routed!.guardrails).toBeNull();
    expect(embed!.createdAt).toEqual(at(6));
  });

  it('filters by key, served model and end user hash, and sees the whole fleet without an org', async () => {
    const s = await seed(getDb);
    const ids = async (query: Record<string, string>) => (await getDb().requestLog.list({ ...period, orgId: s.org.id, ...query })).entries.map((e) => e.requestId);
    expect(await ids({ keyId: 'key-b' })).toEqual([s.embed, s.semantic]);
    expect(await ids({ model: 'anthropic/claude-3-5-haiku' })).toEqual([s.routed]);
    expect(await ids({ endUser: ada })).toEqual([s.exact, s.routed]);
    expect(await ids({ endUser: `u:${'b'.repeat(32)}` })).toEqual([]);
    expect(await ids({ requestId: s.routed })).toEqual([s.routed]);
    expect(await ids({ batchId: 'batch_1' })).toEqual([s.embed]);
    expect(await ids({ batchId: 'batch_2' })).toEqual([]);
    const fleet = await getDb().requestLog.list(period);
    expect(fleet.entries.map((e) => e.requestId)).toContain(s.foreign);
    expect((await getDb().requestLog.list({ ...period, orgId: 'not-a-uuid' })).entries).toEqual([]);
  });

  it('pages with a cursor, without a gap or a repeat between rows of the same millisecond', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const same = new Date(Date.UTC(2015, 1, 1, 12));
    const ids = Array.from({ length: 7 }, (_, i) => `req_page_${i}_${randomUUID()}`);
    await db.usage.insertMany(ids.map((id) => ({ ...spend(org.id, id, 0), createdAt: same })));
    const query = { orgId: org.id, since: new Date(Date.UTC(2015, 0, 1)), until: new Date(Date.UTC(2015, 2, 1)), limit: 3 };
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const result = await db.requestLog.list({ ...query, ...(cursor ? { cursor } : {}) });
      seen.push(...result.entries.map((e) => e.requestId));
      if (result.next === null) break;
      cursor = result.next;
    }
    expect(seen).toEqual([...ids].sort().reverse());
    // A malformed cursor is the first page, and the page size is capped.
    expect((await db.requestLog.list({ ...query, cursor: 'nonsense' })).entries).toHaveLength(3);
    expect((await db.requestLog.list({ ...query, limit: 10_000 })).entries).toHaveLength(7);
  });

  it('totals cost per served model and per key, costliest first', async () => {
    const s = await seed(getDb);
    const byModel = await getDb().traffic.costs({ ...period, orgId: s.org.id }, 'model');
    expect(byModel.map((m) => [m.group, m.requests])).toEqual([
      ['anthropic/claude-3-5-haiku', 1],
      ['openai/text-embedding-3-small', 1],
      ['openai/gpt-4o-mini', 3],
    ]);
    expect(byModel[0]!.costUsd).toBeCloseTo(0.25, 10);
    expect(byModel[2]).toMatchObject({ failed: 1, cacheHits: 2, exactHits: 1, semanticHits: 1 });
    const byKey = await getDb().traffic.costs({ ...period, orgId: s.org.id }, 'key');
    expect(byKey.map((k) => [k.group, k.requests])).toEqual([
      ['key-a', 2],
      ['key-b', 2],
      [null, 1],
    ]);
  });
}

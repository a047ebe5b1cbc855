import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { NewRoutingDecision } from '../../types.js';
import { createTestOrg, type GetDb } from '../fixtures.js';

function decision(orgId: string, overrides: Partial<NewRoutingDecision> = {}): NewRoutingDecision {
  return {
    requestId: `req_${randomUUID()}`,
    orgId,
    model: 'anthropic/claude-3-5-haiku',
    provider: 'anthropic',
    source: 'auto',
    outcome: 'success',
    ...overrides,
  };
}

export function decisionConformance(getDb: GetDb): void {
  it('round-trips a decision with its JSON attempts and candidates', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const row = decision(org.id, {
      requestedModel: 'auto',
      tier: 'T2',
      lane: 'smart',
      taskFamily: 'code',
      intelligenceMode: 'full',
      attempts: [
        { model: 'openai/gpt-4o', status: 429, error: 'rate_limited' },
        { model: 'anthropic/claude-3-5-haiku', status: 200 },
      ],
      candidates: [{ model: 'openai/gpt-4o', score: 0.91, reasons: ['quality'] }],
      outcome: 'fallback',
      details: { replicatedChoices: 2, usageEstimated: true },
      latencyMs: 812,
    });
    expect(await db.decisions.insertMany([row])).toBe(1);
    expect(await db.decisions.insertMany([row])).toBe(0);
    const stored = await db.decisions.get(row.requestId);
    expect(stored).toMatchObject(row);
    expect(stored?.createdAt).toBeInstanceOf(Date);
    expect(await db.decisions.get('req_missing')).toBeUndefined();
  });

  it('fills defaults for optional fields', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const row = decision(org.id);
    await db.decisions.insertMany([row]);
    expect(await db.decisions.get(row.requestId)).toMatchObject({
      requestedModel: null,
      tier: null,
      lane: null,
      taskFamily: null,
      intelligenceMode: null,
      attempts: [],
      candidates: [],
      details: {},
      latencyMs: 0,
    });
  });

  it('lists newest first, filtered by org, model and since', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const other = await createTestOrg(db);
    const at = (hour: number) => new Date(Date.UTC(2025, 2, 1, hour));
    await db.decisions.insertMany([
      decision(org.id, { requestId: `a-${org.id}`, model: 'm/one', createdAt: at(1) }),
      decision(org.id, { requestId: `b-${org.id}`, model: 'm/two', createdAt: at(2) }),
      decision(org.id, { requestId: `c-${org.id}`, model: 'm/one', createdAt: at(3) }),
      decision(other.id, { requestId: `d-${org.id}`, model: 'm/one', createdAt: at(4) }),
    ]);
    const ids = async (options: Parameters<typeof db.decisions.list>[0]) =>
      (await db.decisions.list(options)).map((d) => d.requestId);
    expect(await ids({ orgId: org.id, limit: 10 })).toEqual([`c-${org.id}`, `b-${org.id}`, `a-${org.id}`]);
    expect(await ids({ orgId: org.id, model: 'm/one', limit: 10 })).toEqual([`c-${org.id}`, `a-${org.id}`]);
    expect(await ids({ orgId: org.id, since: at(2), limit: 1 })).toEqual([`c-${org.id}`]);
    expect(await ids({ orgId: 'not-a-uuid', limit: 10 })).toEqual([]);
    const recent = await ids({ since: at(4), model: 'm/one', limit: 1000 });
    expect(recent).toContain(`d-${org.id}`);
  });
}

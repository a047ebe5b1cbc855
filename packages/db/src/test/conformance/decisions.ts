import { expect, it } from 'vitest';
import { SCALAR_FEATURE_NAMES } from '@svc/core';
import { packFeatures } from '../../decision-features.js';
import { createTestOrg, type GetDb, newDecision } from '../fixtures.js';


const decision = newDecision;

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

  it('reads packed features back as the object a row stored with the object reads back as (values and key order)', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const features = Object.fromEntries(SCALAR_FEATURE_NAMES.map((name, at) => [name, at % 3 === 0 ? at % 2 === 0 : at * 0.125]));
    const details = (stored: unknown) => ({ complexity: 'trivial', features: stored, waterfall: ['m/a'], featureCount: 8 });
    const plain = decision(org.id, { requestId: `plain-${org.id}`, details: details(features) });
    const packed = decision(org.id, { requestId: `packed-${org.id}`, details: details(packFeatures(features)) });
    expect(typeof packed.details?.features).toBe('string');
    await db.decisions.insertMany([plain, packed]);
    const shown = async (id: string) => JSON.stringify((await db.decisions.get(id))?.details);
    expect(await shown(packed.requestId)).toBe(await shown(plain.requestId));
    const listed = await db.decisions.list({ orgId: org.id, limit: 10 });
    expect(listed.map((d) => JSON.stringify(d.details))).toEqual([await shown(plain.requestId), await shown(plain.requestId)]);
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

/** Aggregates of the routing reports: GROUP BY queries, identical on every backend. */
export function decisionAggregateConformance(getDb: GetDb): void {
  const at = (minute: number) => new Date(Date.UTC(2025, 4, 1, 12, minute));
  const window = { since: at(0), until: at(60) };

  it('computes outcome and latency figures per window, over every matching row', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const two = [{ model: 'a' }, { model: 'b' }];
    await db.decisions.insertMany([
      decision(org.id, { outcome: 'ok', latencyMs: 100, createdAt: at(1) }),
      decision(org.id, { outcome: 'ok', latencyMs: 200, attempts: two, createdAt: at(2) }),
      decision(org.id, { outcome: 'ok', latencyMs: 300, createdAt: at(3) }),
      decision(org.id, { outcome: 'ok', latencyMs: 400, createdAt: at(4) }),
      decision(org.id, { outcome: 'error', latencyMs: 9000, attempts: [...two, { model: 'c' }], createdAt: at(5) }),
      decision(org.id, { outcome: 'error_after_first_byte', latencyMs: 50, createdAt: at(6) }),
      decision(org.id, { outcome: 'client_closed', latencyMs: 10, createdAt: at(7) }),
      decision(org.id, { outcome: 'ok', latencyMs: 5, model: 'm/other', createdAt: at(8) }),
      decision(org.id, { outcome: 'ok', latencyMs: 1, createdAt: at(61) }),
    ]);
    const [all, early, empty] = await db.decisions.outcomeStats([window, { since: at(0), until: at(5) }, { since: at(100), until: at(200) }], { orgId: org.id });
    expect(all).toEqual({ decisions: 8, succeeded: 5, failed: 2, fallbacks: 2, latencyMeanMs: 201, latencyP50Ms: 200, latencyP95Ms: 380 });
    expect(early).toMatchObject({ decisions: 4, succeeded: 4, failed: 0, fallbacks: 1, latencyMeanMs: 250, latencyP50Ms: 250 });
    expect(early?.latencyP95Ms).toBeCloseTo(385, 9);
    expect(empty).toEqual({ decisions: 0, succeeded: 0, failed: 0, fallbacks: 0, latencyMeanMs: null, latencyP50Ms: null, latencyP95Ms: null });
    const [haiku] = await db.decisions.outcomeStats([window], { orgId: org.id, model: 'anthropic/claude-3-5-haiku' });
    expect(haiku).toMatchObject({ decisions: 7, succeeded: 4 });
    expect(await db.decisions.outcomeStats([window], { orgId: 'not-a-uuid' })).toEqual([expect.objectContaining({ decisions: 0 })]);
    expect(await db.decisions.outcomeStats([], { orgId: org.id })).toEqual([]);
  });

  it('computes outcome figures per served model', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    await db.decisions.insertMany([
      decision(org.id, { model: 'm/b', outcome: 'ok', latencyMs: 10, createdAt: at(1) }),
      decision(org.id, { model: 'm/b', outcome: 'error', latencyMs: 99, createdAt: at(2) }),
      decision(org.id, { model: 'm/a', outcome: 'ok', latencyMs: 30, createdAt: at(3) }),
      decision(org.id, { model: 'm/a', outcome: 'ok', latencyMs: 50, createdAt: at(4) }),
      decision(org.id, { model: 'm/a', outcome: 'ok', latencyMs: 70, createdAt: at(70) }),
    ]);
    expect(await db.decisions.outcomeStatsByModel({ ...window, orgId: org.id })).toEqual([
      { model: 'm/a', decisions: 2, succeeded: 2, failed: 0, fallbacks: 0, latencyMeanMs: 40, latencyP50Ms: 40, latencyP95Ms: 49 },
      { model: 'm/b', decisions: 2, succeeded: 1, failed: 1, fallbacks: 0, latencyMeanMs: 10, latencyP50Ms: 10, latencyP95Ms: 10 },
    ]);
    expect(await db.decisions.outcomeStatsByModel({ since: at(0), orgId: org.id, model: 'm/a' })).toEqual([expect.objectContaining({ model: 'm/a', decisions: 3 })]);
  });

  it('tallies every dimension per organisation, with null for missing values', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const other = await createTestOrg(db);
    await db.decisions.insertMany([
      decision(org.id, { taskFamily: 'code', tier: 'T2', details: { complexity: 'complex' }, outcome: 'ok', latencyMs: 100, createdAt: at(1) }),
      decision(org.id, { taskFamily: 'code', tier: 'T2', details: { complexity: 'standard' }, outcome: 'ok', latencyMs: 300, createdAt: at(2) }),
      decision(org.id, { taskFamily: 'chat', tier: 'T3', model: 'm/fast', outcome: 'error', latencyMs: 5, createdAt: at(3) }),
      decision(other.id, { taskFamily: 'math', createdAt: at(4) }),
    ]);
    const rows = await db.decisions.tally({ ...window, orgId: org.id });
    const of = (dimension: string) => rows.filter((r) => r.dimension === dimension).map(({ value, decisions }) => [value, decisions]);
    expect(of('task_family')).toEqual([
      ['chat', 1],
      ['code', 2],
    ]);
    expect(of('complexity')).toEqual([
      ['complex', 1],
      ['standard', 1],
      [null, 1],
    ]);
    expect(of('tier')).toEqual([
      ['T2', 2],
      ['T3', 1],
    ]);
    expect(of('model')).toEqual([
      ['anthropic/claude-3-5-haiku', 2],
      ['m/fast', 1],
    ]);
    expect(rows.find((r) => r.dimension === 'outcome' && r.value === 'ok')).toEqual({
      orgId: org.id,
      dimension: 'outcome',
      value: 'ok',
      decisions: 2,
      succeeded: 2,
      failed: 0,
      latencySumMs: 400,
    });
    expect(rows.find((r) => r.dimension === 'outcome' && r.value === 'error')).toMatchObject({ decisions: 1, succeeded: 0, failed: 1, latencySumMs: 0 });
    const fleet = await db.decisions.tally(window);
    expect(fleet.filter((r) => r.orgId === other.id && r.dimension === 'task_family')).toEqual([expect.objectContaining({ value: 'math', decisions: 1 })]);
    expect(await db.decisions.tally({ ...window, orgId: org.id, model: 'm/fast' })).toHaveLength(5);
  });

  it('groups the decisions that stated constraints, with newest request ids as samples', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const rows = [
      decision(org.id, { requestId: `pc1-${org.id}`, tier: 'T1', details: { constraints: { maxTier: 2, preferenceDial: 0.3 } }, createdAt: at(1) }),
      decision(org.id, { requestId: `pc2-${org.id}`, tier: 'T1', details: { constraints: { maxTier: 2, preferenceDial: 0.9 } }, createdAt: at(2) }),
      decision(org.id, { requestId: `pc3-${org.id}`, tier: 'T1', details: { constraints: { maxTier: 2 } }, createdAt: at(3) }),
      decision(org.id, {
        requestId: `pc4-${org.id}`,
        tier: 'T3',
        lane: 'turbo',
        details: { constraints: { forceProvider: 'groq' }, notApplied: ['routing_override.force_provider'] },
        createdAt: at(4),
      }),
      decision(org.id, { requestId: `pc5-${org.id}`, details: { constraints: { preferenceDial: 0.5 } }, createdAt: at(5) }),
      decision(org.id, { requestId: `pc6-${org.id}`, details: { constraints: 'bogus' }, createdAt: at(6) }),
      decision(org.id, { requestId: `pc7-${org.id}`, details: {}, createdAt: at(7) }),
    ];
    await db.decisions.insertMany(rows);
    const groups = await db.decisions.constraintGroups({ ...window, orgId: org.id }, 2);
    expect(groups).toEqual([
      {
        constraints: { maxTier: 2 },
        notApplied: null,
        model: 'anthropic/claude-3-5-haiku',
        tier: 'T1',
        lane: null,
        decisions: 3,
        sampleRequestIds: [`pc3-${org.id}`, `pc2-${org.id}`],
        newestAt: at(3).getTime(),
      },
      {
        constraints: { forceProvider: 'groq' },
        notApplied: ['routing_override.force_provider'],
        model: 'anthropic/claude-3-5-haiku',
        tier: 'T3',
        lane: 'turbo',
        decisions: 1,
        sampleRequestIds: [`pc4-${org.id}`],
        newestAt: at(4).getTime(),
      },
    ]);
    expect(await db.decisions.constraintGroups({ ...window, orgId: org.id, model: 'm/none' }, 5)).toEqual([]);
  });

  it('aggregates past the 1000-row cap of list', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    await db.decisions.insertMany(
      Array.from({ length: 1500 }, (_, i) => decision(org.id, { model: i % 3 === 0 ? 'm/x' : 'm/y', latencyMs: i, outcome: 'ok', createdAt: at(10 + (i % 40)) })),
    );
    const [stats] = await db.decisions.outcomeStats([window], { orgId: org.id });
    expect(stats).toMatchObject({ decisions: 1500, succeeded: 1500, latencyMeanMs: 749.5 });
    const models = (await db.decisions.tally({ ...window, orgId: org.id })).filter((r) => r.dimension === 'model');
    expect(models.map((r) => [r.value, r.decisions])).toEqual([
      ['m/x', 500],
      ['m/y', 1000],
    ]);
  });
}

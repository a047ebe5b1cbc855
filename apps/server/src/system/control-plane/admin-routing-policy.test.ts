import type { Organization } from '@svc/core';
import { createInferenceApp } from '@svc/inference';
import type { ConstraintCompliance, PolicyCompliance } from '@svc/reports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, decisionOf, itIsAnAdminReport, json, type ReportTestContext, startReportRuntime } from './admin-routing-test-kit.js';

type Stats = PolicyCompliance & { object: string; window_days: number; window: { start: string; end: string } };

let ctx: ReportTestContext;
let policed: Organization;
let live: Organization;
const forceProviderNotApplied = ['routing_override.force_provider'];

beforeAll(async () => {
  // Mistral's catalog brings free models; its endpoint is closed, nothing here calls it.
  ctx = await startReportRuntime({ MISTRAL_API_KEY: 'test-key', MISTRAL_BASE_URL: 'http://127.0.0.1:9' });
  [policed, live] = await Promise.all([ctx.org('policed'), ctx.org('live')]);
  const at = (hours: number, constraints: Record<string, unknown> | undefined, overrides: Parameters<typeof decisionOf>[2] = {}) =>
    decisionOf(policed, hours * HOUR, { ...overrides, details: { ...(constraints ? { constraints } : {}), ...overrides.details } });
  const value = { model: 'mock/mock-value', tier: 'T2' };
  const quality = { model: 'mock/mock-quality', tier: 'T1' };
  const speed = { model: 'mock/mock-speed', tier: 'T3' };
  await ctx.runtime.db.decisions.insertMany([
    ...[1, 2, 3].map((h) => at(h, { maxTier: 2, preferenceDial: h / 10 }, value)),
    at(5, { maxTier: 2 }, { ...quality, requestId: 'pol_max_tier_old' }),
    at(4, { maxTier: 2 }, { ...quality, requestId: 'pol_max_tier_new' }),
    at(6, { forceTier: 'T3', maxTier: 1 }, speed),
    at(7, { forceModel: 'mock/mock-value' }, { ...speed, requestId: 'pol_force_model' }),
    at(8, { mode: 'free_models_only', freeModelsOnly: true }, { model: 'mistral/mistral-small-latest', tier: 'T3' }),
    at(9, { mode: 'free_models_only', freeModelsOnly: true }, { ...value, requestId: 'pol_not_free' }),
    at(10, { forceProvider: 'groq' }, { ...value, details: { notApplied: forceProviderNotApplied } }),
    at(11, { forceProvider: 'groq' }, { ...value, requestId: 'pol_force_provider' }),
    at(12, { forceLane: 'turbo' }, { ...value, lane: 'smart', requestId: 'pol_force_lane' }),
    // Rows from before the pipeline recorded constraints, and soft hints only: unconstrained.
    at(13, undefined, value),
    at(14, undefined, quality),
    at(15, { mode: 'balanced', preferenceDial: 0.4 }, quality),
    // Outside the default window.
    at(10 * 24, { maxTier: 3 }, quality),
  ]);
});
afterAll(async () => {
  await ctx?.runtime.close();
});

const stats = async (query = '') => json<Stats>(await ctx.request(`/v1/admin/routing/policy${query}`));
const constraint = (s: Stats, name: string) => s.constraints.find((c) => c.constraint === name)!;
const counts = (c: ConstraintCompliance) => [c.decisions, c.compliant, c.violations, c.unknown, c.superseded];

describe('GET /v1/admin/routing/policy', () => {
  itIsAnAdminReport(() => ctx, '/v1/admin/routing/policy');

  it('counts compliant and violating decisions overall', async () => {
    const s = await stats(`?tenant_id=${policed.id}`);
    expect(s).toMatchObject({
      object: 'policy_compliance_stats',
      window_days: 7,
      decisions: 15,
      constrained_decisions: 12,
      compliant_decisions: 6,
      violating_decisions: 6,
      unknown_decisions: 0,
      compliance_rate: 0.5,
    });
    expect(Date.parse(s.window.end) - Date.parse(s.window.start)).toBe(7 * DAY);
  });

  it('judges each hard constraint against what served the decision', async () => {
    const s = await stats(`?tenant_id=${policed.id}`);
    expect(s.constraints.map((c) => c.constraint)).toEqual(['max_tier', 'force_tier', 'force_lane', 'force_model', 'free_models_only', 'force_provider']);
    // decisions, compliant, violations, unknown, superseded
    expect(counts(constraint(s, 'max_tier'))).toEqual([6, 3, 2, 0, 1]);
    expect(constraint(s, 'max_tier')).toMatchObject({ compliance_rate: 0.6, violating_request_ids: ['pol_max_tier_new', 'pol_max_tier_old'] });
    expect(counts(constraint(s, 'force_tier'))).toEqual([1, 1, 0, 0, 0]);
    expect(constraint(s, 'force_lane')).toMatchObject({ decisions: 1, violations: 1, compliance_rate: 0, violating_request_ids: ['pol_force_lane'] });
    expect(constraint(s, 'force_model')).toMatchObject({ decisions: 1, violations: 1, violating_request_ids: ['pol_force_model'] });
    expect(constraint(s, 'free_models_only')).toMatchObject({ decisions: 2, compliant: 1, violations: 1, compliance_rate: 0.5, violating_request_ids: ['pol_not_free'] });
    expect(constraint(s, 'force_provider')).toMatchObject({ decisions: 2, compliant: 1, violations: 1, violating_request_ids: ['pol_force_provider'] });
  });

  it('lists at most `limit` violating request ids per constraint, the newest first', async () => {
    const s = await stats(`?tenant_id=${policed.id}&limit=1`);
    expect(constraint(s, 'max_tier').violating_request_ids).toEqual(['pol_max_tier_new']);
    expect(constraint(s, 'max_tier').violations).toBe(2);
  });

  it('narrows to the served model and widens with days', async () => {
    const quality = await stats(`?tenant_id=${policed.id}&model=mock/mock-quality`);
    expect(quality).toMatchObject({ decisions: 4, constrained_decisions: 2, violating_decisions: 2, compliance_rate: 0 });
    const month = await stats(`?tenant_id=${policed.id}&days=30`);
    expect(month).toMatchObject({ decisions: 16, constrained_decisions: 13, violating_decisions: 7 });
  });

  it('judges the constraints the pipeline records for real traffic', async () => {
    const key = await ctx.runtime.authenticator.issue({ orgId: live.id, scopes: ['inference:chat'] });
    const inference = createInferenceApp({ ...ctx.runtime, maxBodyBytes: 64 * 1024 });
    const chat = await inference.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'svc/auto',
        messages: [{ role: 'user', content: 'Say hello.' }],
        routing_hints: { max_tier: 2 },
        routing_override: { force_provider: 'groq' },
      }),
    });
    expect(chat.status).toBe(200);
    await ctx.runtime.learn.flush();
    const s = await stats(`?tenant_id=${live.id}`);
    expect(s).toMatchObject({ decisions: 1, constrained_decisions: 1, compliant_decisions: 1, compliance_rate: 1 });
    expect(counts(constraint(s, 'max_tier'))).toEqual([1, 1, 0, 0, 0]);
    expect(counts(constraint(s, 'force_provider'))).toEqual([1, 1, 0, 0, 0]);
  });
});

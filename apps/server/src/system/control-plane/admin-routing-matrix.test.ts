import { randomUUID } from 'node:crypto';
import type { Organization } from '@svc/core';
import { createRedisKv } from '@svc/kv';
import { redisReachable, removeRedisKeys } from '@svc/kv/test';
import type { CapabilityMatrix, MatrixModel } from '@svc/reports';
import { parseEnv } from '../../runtime/env.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, decisionOf, expectAdminOnly, expectConfigErrors, json, MASTER_KEY, type ReportTestContext, startReportRuntime } from './admin-routing-test-kit.js';
import type { ControlPlaneDeps } from '@svc/control-plane';
import { matrixKeys } from '@svc/control-plane';

interface Refresh {
  object: string;
  ok: boolean;
  error_detail: string | null;
  refreshed_at: string | null;
  duration_ms: number;
  totals: CapabilityMatrix['totals'] | null;
}

let ctx: ReportTestContext;
let org: Organization;

beforeAll(async () => {
  ctx = await startReportRuntime({ SVC_MATRIX_MIN_DECISIONS: '3', SVC_BREAKER_COOLDOWN_MS: '300000' });
  org = await ctx.org('matrix');
  await ctx.runtime.db.decisions.insertMany([
    ...[100, 200, 300, 400].map((latencyMs, i) => decisionOf(org, (i + 1) * HOUR, { model: 'mock/mock-value', latencyMs })),
    decisionOf(org, HOUR, { model: 'mock/mock-speed' }),
    decisionOf(org, 2 * HOUR, { model: 'mock/mock-speed', outcome: 'error' }),
    decisionOf(org, 3 * HOUR, { model: 'mock/mock-speed', outcome: 'error' }),
    decisionOf(org, HOUR, { model: 'mock/mock-quality' }),
    // Older than the 24-hour window.
    ...Array.from({ length: 10 }, () => decisionOf(org, 2 * DAY, { model: 'mock/mock-quality', outcome: 'error' })),
  ]);
});
afterAll(async () => {
  await ctx?.runtime.close();
});

const matrix = async () => json<CapabilityMatrix & { object: string }>(await ctx.request('/v1/admin/routing/matrix'));
const refresh = (app = ctx.control) => app.request('/v1/admin/routing/matrix/refresh', { method: 'POST', headers: { authorization: `Bearer ${MASTER_KEY}` } });
const row = (m: CapabilityMatrix, id: string) => m.models.find((r) => r.id === id) as MatrixModel;

/** Breakers whose `list` waits until `release()`: a refresh that is still running. */
function slowBreakers(deps: Pick<ControlPlaneDeps, 'breakers'>) {
  let release = () => {};
  let entered = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const started = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const breakers: ControlPlaneDeps['breakers'] = {
    list: async () => {
      entered();
      await gate;
      return deps.breakers.list();
    },
    reset: (key) => deps.breakers.reset(key),
    windowMs: deps.breakers.windowMs,
  };
  return { breakers, started, release: () => release() };
}

describe('GET /v1/admin/routing/matrix and POST /matrix/refresh: authorisation', () => {
  it('are admin only', async () => {
    await expectAdminOnly(ctx, '/v1/admin/routing/matrix');
    await expectAdminOnly(ctx, '/v1/admin/routing/matrix/refresh', 'POST');
  });
});

describe('GET /v1/admin/routing/matrix', () => {
  it('computes the matrix of the active chat models on the first call', async () => {
    const m = await matrix();
    expect(m.object).toBe('capability_matrix');
    expect(m.models.map((r) => r.id)).toEqual(['mock/mock-quality', 'mock/mock-value', 'mock/mock-speed']);
    expect(row(m, 'mock/mock-value')).toMatchObject({
      provider: 'mock',
      tier: 'T2',
      capabilities: { tools: true, vision: true, json: true, reasoning: false, audio: false },
      free: false,
      breaker: { state: 'closed', consecutive_failures: 0 },
      decisions: 4,
      success_rate: 1,
      p50_latency_ms: 250,
      status: 'healthy',
      reasons: [],
    });
    expect(row(m, 'mock/mock-value').context_window).toBeGreaterThan(0);
    expect(row(m, 'mock/mock-speed')).toMatchObject({ decisions: 3, success_rate: 1 / 3, status: 'degraded', reasons: ['success_rate_below_threshold'] });
    expect(row(m, 'mock/mock-quality')).toMatchObject({ decisions: 1, success_rate: 1, status: 'unknown', reasons: ['too_few_decisions'] });
    expect(m.totals).toMatchObject({ models: 3, healthy: 1, degraded: 1, unavailable: 0, unknown: 1, decisions: 8 });
    expect(m).toMatchObject({ window_hours: 24, thresholds: { min_decisions: 3, min_success_rate: 0.9 } });
    expect(Date.now() - Date.parse(m.refreshed_at)).toBeLessThan(60_000);
  });

  it('serves the last computed matrix until a refresh', async () => {
    const first = await matrix();
    for (let i = 0; i < 5; i++) await ctx.runtime.breakers.record('mock/mock-value', 'failure');
    const second = await matrix();
    expect(second.refreshed_at).toBe(first.refreshed_at);
    expect(row(second, 'mock/mock-value').status).toBe('healthy');

    const refreshed = await json<Refresh>(await refresh());
    expect(refreshed).toMatchObject({ object: 'matrix_refresh', ok: true, error_detail: null, totals: { models: 3, healthy: 0, unavailable: 1 } });
    expect(refreshed.duration_ms).toBeGreaterThanOrEqual(0);
    const third = await matrix();
    expect(third.refreshed_at).toBe(refreshed.refreshed_at);
    expect(Date.parse(third.refreshed_at)).toBeGreaterThanOrEqual(Date.parse(first.refreshed_at));
    expect(row(third, 'mock/mock-value')).toMatchObject({
      status: 'unavailable',
      reasons: ['breaker_open'],
      breaker: { state: 'open', consecutive_failures: 5, opened_at: expect.any(String), next_probe_at: expect.any(String) },
    });
    await ctx.runtime.breakers.reset();
  });
});

describe('POST /v1/admin/routing/matrix/refresh', () => {
  it('answers 500 with ok false and the failed step, and frees the lock', async () => {
    const failing = ctx.withDeps({
      breakers: {
        list: async () => {
          throw new Error('breaker store down');
        },
        reset: async () => {},
        windowMs: 30_000,
      },
    });
    const body = await json<Refresh>(await refresh(failing), 500);
    expect(body).toMatchObject({ ok: false, error_detail: 'reading circuit breakers failed: breaker store down', refreshed_at: null, totals: null });
    expect((await refresh()).status).toBe(200);
  });

  it('answers 503 while another refresh runs, and serves GET meanwhile', async () => {
    const slow = slowBreakers(ctx.runtime);
    const running = refresh(ctx.withDeps({ breakers: slow.breakers }));
    await slow.started;
    const busy = await refresh();
    expect(busy.status).toBe(503);
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await busy.json()).toMatchObject({ error: { type: 'governance_error', code: 'matrix_refresh_in_progress', message: expect.any(String) } });
    expect((await ctx.request('/v1/admin/routing/matrix')).status).toBe(200);
    slow.release();
    expect(await json<Refresh>(await running)).toMatchObject({ ok: true });
    expect((await refresh()).status).toBe(200);
  });

  it('answers 503 while the lock is held by another instance, until it is released', async () => {
    await ctx.runtime.kv.set(matrixKeys(ctx.runtime.kvNamespace).refreshLock, 'another-instance', { ttlMs: 30_000 });
    const busy = await refresh();
    expect(busy.status).toBe(503);
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(25);
    // Not ours: this instance must not release it.
    expect(await ctx.runtime.kv.get(matrixKeys(ctx.runtime.kvNamespace).refreshLock)).toBe('another-instance');
    await ctx.runtime.kv.delete(matrixKeys(ctx.runtime.kvNamespace).refreshLock);
    expect((await refresh()).status).toBe(200);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
const redisUp = redisUrl ? await redisReachable(redisUrl) : false;
if (redisUrl && !redisUp && process.env.CI === 'true') throw new Error('TEST_REDIS_URL is set but Redis does not answer');

describe.runIf(redisUp)('capability matrix across instances sharing Redis', () => {
  const prefix = `svc-test-matrix-${randomUUID()}:`;
  const kvs = [createRedisKv({ url: redisUrl!, keyPrefix: prefix }), createRedisKv({ url: redisUrl!, keyPrefix: prefix })];
  afterAll(async () => {
    await Promise.all(kvs.map((kv) => kv.close()));
    await removeRedisKeys(redisUrl!, prefix);
  });

  it('lets one refresh run at a time and shares the matrix it computed', async () => {
    const slow = slowBreakers(ctx.runtime);
    const first = ctx.withDeps({ kv: kvs[0]!, breakers: slow.breakers });
    const second = ctx.withDeps({ kv: kvs[1]! });
    const running = refresh(first);
    await slow.started;
    expect((await refresh(second)).status).toBe(503);
    slow.release();
    const done = await json<Refresh>(await running);
    expect(done.ok).toBe(true);
    const served = await json<CapabilityMatrix>(await second.request('/v1/admin/routing/matrix', { headers: { authorization: `Bearer ${MASTER_KEY}` } }));
    expect(served.refreshed_at).toBe(done.refreshed_at);
    expect((await refresh(second)).status).toBe(200);
  });
});

describe('matrix thresholds from the environment', () => {
  it('defaults to 10 decisions and a 0.9 success rate', () => {
    expect(parseEnv({})).toMatchObject({ SVC_MATRIX_MIN_DECISIONS: 10, SVC_MATRIX_MIN_SUCCESS_RATE: 0.9 });
  });

  it('names the variable of a bad value', () => {
    expectConfigErrors([
      ['SVC_MATRIX_MIN_DECISIONS', '1.5'],
      ['SVC_MATRIX_MIN_SUCCESS_RATE', '90'],
    ]);
  });
});

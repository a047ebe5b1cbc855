import { randomUUID } from 'node:crypto';
import type { Organization, Scope } from '@svc/core';
import { createInferenceApp } from '@svc/inference';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, MASTER_KEY, type ReportTestContext, startReportRuntime } from './admin-routing-test-kit.js';

/**
 * `/metrics/summary`, `/metrics/swc`, `/benchmarks` and `/crane/stats` over real gateway traffic:
 * an organisation's requests through the inference app on the same runtime, written by the learn
 * stage (flushed by hand: SVC_LEARN_FLUSH_MS is long so the backlog can be seen).
 */

let ctx: ReportTestContext;
let inference: ReturnType<typeof createInferenceApp>;
let org: Organization;
let observer: string;

const keyOf = async (orgId: string, scopes: Scope[]) => (await ctx.runtime.authenticator.issue({ orgId, scopes })).secret;

const chat = (content: string, model = 'mock/mock-value') =>
  inference.request('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${observer}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content }] }),
  });

beforeAll(async () => {
  ctx = await startReportRuntime({ SVC_LEARN_FLUSH_MS: '600000', SVC_SEMANTIC_CACHE: '0' });
  inference = createInferenceApp({ ...ctx.runtime, maxBodyBytes: 64 * 1024 });
  org = await ctx.org('observed');
  observer = await keyOf(org.id, ['observability:read', 'inference:chat']);
  // The organisation's traffic: two answers, one exact cache hit, one failure.
  const question = `what is the capital of france ${randomUUID()}`;
  expect((await chat(question)).status).toBe(200);
  expect((await chat(question)).headers.get('x-svc-cache-hit')).toBe('true');
  // No random suffix here: digits would sway the task family.
  expect((await chat('write a python function that sorts a list of strings by length')).status).toBe(200);
  expect((await chat(`fail please [mock:error=503] ${randomUUID()}`)).status).toBeGreaterThanOrEqual(500);
  // Another organisation's traffic, seeded in the ledger: only the fleet sees it.
  const other = await ctx.org('other');
  await ctx.runtime.db.usage.insertMany([
    { requestId: `req_other_${randomUUID()}`, orgId: other.id, model: 'mock/mock-speed', provider: 'mock', promptTokens: 1000, completionTokens: 10, costUsd: 5, baselineCostUsd: 6, latencyMs: 10, status: 200 },
  ]);
});
afterAll(async () => {
  await ctx?.runtime.close();
});

interface Summary {
  tokens: { prompt: number; completion: number; total: number };
  cost_usd: number;
  baseline_cost_usd: number;
  savings_usd: number;
  latency_ms: { p50: number | null; p99: number | null };
}

const get = (path: string, key: string | null = observer) => ctx.request(path, { key });

describe('GET /v1/observability/crane/stats', () => {
  it('shows the learn stage backlog, then what it wrote', async () => {
    const before = await json<Record<string, unknown>>(await get('/v1/observability/crane/stats'));
    expect(before).toMatchObject({ object: 'crane.stats', backend: 'in_process', scope: 'instance', pending: { usage: 3, decisions: 4 }, queue_depth: 7 });
    expect(before.lag_ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(before.oldest_pending_at as string)).toBeLessThanOrEqual(Date.now());
    await ctx.runtime.learn.flush();
    const after = await json<Record<string, unknown>>(await get('/v1/observability/crane/stats'));
    expect(after).toMatchObject({ queue_depth: 0, lag_ms: 0, oldest_pending_at: null, instance: { queued: 0, failures: 0, last_error_at: null } });
    expect((after.instance as { processed: number }).processed).toBeGreaterThanOrEqual(7);
    expect(Date.parse((after.instance as { last_flush_at: string }).last_flush_at)).toBeLessThanOrEqual(Date.now());
    expect(await (await inference.request('/metrics')).text()).toMatch(/svc_learn_processed_total \d+/);
  });
});

describe('GET /v1/observability/metrics/summary', () => {
  it('sums the organisation\u2019s own traffic for a key with observability:read', async () => {
    await ctx.runtime.learn.flush();
    const summary = await json<Summary>(await get('/v1/observability/metrics/summary'));
    expect(summary).toMatchObject({
      object: 'metrics.summary',
      scope: 'organization',
      org_id: org.id,
      window: { days: 1 },
      requests: { total: 4, succeeded: 3, failed: 1, client_closed: 0, error_rate: 0.25 },
      cache: { hits: 1, exact_hits: 1, semantic_hits: 0, hit_rate: 0.25 },
      live: { degradation_level: 'none', open_breakers: 0, learn_queue_depth: 0 },
    });
    expect(summary.tokens.prompt).toBeGreaterThan(0);
    expect(summary.tokens.total).toBe(summary.tokens.prompt + summary.tokens.completion);
    expect(summary.cost_usd).toBeGreaterThan(0);
    expect(summary.savings_usd).toBeCloseTo(summary.baseline_cost_usd - summary.cost_usd, 12);
    expect(summary.latency_ms.p50).toEqual(expect.any(Number));
    expect(summary.latency_ms.p99).toBeGreaterThanOrEqual(summary.latency_ms.p50!);
  });

  it('shows an admin the fleet, or one organisation with org_id', async () => {
    const fleet = await json<{ scope: string; requests: { total: number }; cost_usd: number }>(await get('/v1/observability/metrics/summary', MASTER_KEY));
    expect(fleet.scope).toBe('fleet');
    expect(fleet.requests.total).toBeGreaterThanOrEqual(5);
    expect(fleet.cost_usd).toBeGreaterThanOrEqual(5);
    const one = await json<{ scope: string; org_id: string; requests: { total: number } }>(await get(`/v1/observability/metrics/summary?org_id=${org.id}`, MASTER_KEY));
    expect(one).toMatchObject({ scope: 'organization', org_id: org.id, requests: { total: 4 } });
  });
});

describe('GET /v1/observability/metrics/swc', () => {
  it('breaks the organisation\u2019s spend down by workflow type and task family', async () => {
    await ctx.runtime.learn.flush();
    const swc = await json<{ window: { days: number }; workloads: Record<string, unknown>[] }>(await get('/v1/observability/metrics/swc'));
    expect(swc.window.days).toBe(30);
    expect(swc.workloads.reduce((sum, w) => sum + (w.requests as number), 0)).toBe(4);
    const code = swc.workloads.find((w) => w.task_family === 'code')!;
    expect(code).toMatchObject({ requests: 1, failed: 0, workflow_type: expect.any(String) });
    expect(code.cost_usd).toBeGreaterThan(0);
    expect(code.mean_latency_ms).toEqual(expect.any(Number));
    expect((code.tokens as { total: number }).total).toBeGreaterThan(0);
    // The cache hit carries no classification; its savings are the whole baseline.
    const cached = swc.workloads.find((w) => w.task_family === null)!;
    expect(cached).toMatchObject({ requests: 1, cost_usd: 0 });
    expect(cached.savings_usd).toBeGreaterThan(0);
    const shares = swc.workloads.reduce((sum, w) => sum + (w.cost_share as number), 0);
    expect(shares).toBeCloseTo(1, 9);
  });
});

describe('GET /v1/observability/benchmarks', () => {
  it('reports each day per model: latency, cost, savings, cache hit rate', async () => {
    await ctx.runtime.learn.flush();
    const report = await json<{ window: { days: number }; data: Record<string, unknown>[] }>(await get('/v1/observability/benchmarks'));
    expect(report.window.days).toBe(30);
    const today = new Date().toISOString().slice(0, 10);
    const row = report.data.find((r) => r.model === 'mock/mock-value' && r.date === today)!;
    expect(row).toMatchObject({ requests: 4, failed: 1, error_rate: 0.25, cache_hits: 1, cache_hit_rate: 0.25 });
    expect((row.latency_ms as { p50: number }).p50).toEqual(expect.any(Number));
    expect(row.cost_usd).toBeGreaterThan(0);
    expect(report.data.every((r) => r.model !== 'mock/mock-speed')).toBe(true);
  });

  it('clamps days to 1..365 and refuses anything but an integer', async () => {
    expect((await json<{ window: { days: number } }>(await get('/v1/observability/benchmarks?days=0'))).window.days).toBe(1);
    expect((await json<{ window: { days: number } }>(await get('/v1/observability/benchmarks?days=100000'))).window.days).toBe(365);
    expect((await json<{ window: { days: number } }>(await get('/v1/observability/benchmarks?days=7'))).window.days).toBe(7);
    for (const days of ['abc', '1.5', '7d', '1e3']) {
      const refused = await get(`/v1/observability/benchmarks?days=${days}`);
      expect(refused.status, days).toBe(400);
      expect(await refused.json()).toMatchObject({ error: { type: 'invalid_request_error', param: 'days' } });
    }
  });
});

describe('the reports\u2019 authentication and scope', () => {
  const paths = ['/v1/observability/metrics/summary', '/v1/observability/metrics/swc', '/v1/observability/benchmarks', '/v1/observability/crane/stats'];

  it('need a key (401) with observability:read (403)', async () => {
    const chatOnly = await keyOf(org.id, ['inference:chat']);
    for (const path of paths) {
      expect((await get(path, null)).status, path).toBe(401);
      const denied = await get(path, chatOnly);
      expect(denied.status, path).toBe(403);
      expect(await denied.json()).toMatchObject({ error: { code: 'insufficient_scopes' } });
    }
  });

  it('refuse another organisation to a non-admin (403) and a malformed org_id (400)', async () => {
    for (const path of paths.slice(0, 3)) {
      const other = await get(`${path}?org_id=${randomUUID()}`);
      expect(other.status, path).toBe(403);
      expect(await other.json()).toMatchObject({ error: { code: 'tenant_violation' } });
      expect((await get(`${path}?org_id=${org.id}`)).status, path).toBe(200);
      const malformed = await get(`${path}?org_id=not-an-org`, MASTER_KEY);
      expect(malformed.status, path).toBe(400);
      expect(await malformed.json()).toMatchObject({ error: { param: 'org_id' } });
      expect((await get(`${path}?days=soon`)).status, path).toBe(400);
    }
  });
});

describe('GET /metrics on the control plane', () => {
  it('counts its own requests next to the gateway metrics of the runtime it shares', async () => {
    await get('/v1/observability/metrics/summary');
    const scraped = await ctx.control.request('/metrics');
    expect(scraped.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await scraped.text();
    expect(text).toMatch(/svc_requests_total\{route="\/v1\/observability\/metrics\/summary",status="200",model="",provider="",cache=""\} [1-9]/);
    expect(text).toMatch(/svc_request_duration_seconds_count\{route="\/v1\/observability\/crane\/stats",status="200"\} [1-9]/);
    expect(text).toMatch(/svc_tokens_total\{direction="prompt",model="mock\/mock-value",provider="mock"\} [1-9]/);
    expect(text).toMatch(/svc_learn_queue_depth \d+/);
    expect(text).toContain('svc_degradation_level 0');
  });
});

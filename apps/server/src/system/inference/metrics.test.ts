import { randomUUID } from 'node:crypto';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './test-app.js';

/** `GET /metrics` after real traffic: every metric the operations guide lists carries values. */

const master = 'sk-svc-metrics-test-master-hwpuqViM6CJCLQk21fc0lihU';
const test = useTestApp(master);

const chat = (body: Record<string, unknown>, key = master, headers: Record<string, string> = {}) =>
  test.app.request('/v1/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
    body: JSON.stringify({ model: 'mock/mock-value', ...body }),
  });
const ask = (content: string) => ({ messages: [{ role: 'user', content }] });

let text = '';

/** The value of the exposition line `name{labels}` (labels as printed), or undefined. */
function value(line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

beforeAll(async () => {
  const question = `metrics ${randomUUID()}`;
  expect((await chat(ask(question))).status).toBe(200);
  expect((await chat(ask(question))).headers.get('x-svc-cache-hit')).toBe('true');
  expect((await chat(ask(`fail ${randomUUID()} [mock:error=503]`))).status).toBeGreaterThanOrEqual(500);
  const limitedOrg = await test.runtime.db.orgs.create({ name: `metrics-limited-${randomUUID()}`, rpmLimit: 1 });
  const limited = (await test.runtime.authenticator.issue({ orgId: limitedOrg.id, scopes: ['inference:chat'] })).secret;
  expect((await chat(ask(`one ${randomUUID()}`), limited)).status).toBe(200);
  expect((await chat(ask(`two ${randomUUID()}`), limited)).status).toBe(429);
  await test.runtime.switches.setDegradation('light', 'metrics test', null);
  expect((await chat(ask(`shed ${randomUUID()}`), master, { 'x-intelligence-mode': 'full' })).headers.get('x-svc-shed-stages')).toBe('memory');
  await test.runtime.switches.setDegradation('none', null, null);
  for (let i = 0; i < 5; i++) await test.runtime.breakers.record('mock/mock-speed', 'failure');
  // A stream over a real socket: its duration is observed when the last byte is written.
  const server = serve({ fetch: test.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const streamed = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${master}` },
    body: JSON.stringify({ model: 'mock/mock-value', stream: true, ...ask(`stream ${randomUUID()}`) }),
  });
  expect(await streamed.text()).toContain('[DONE]');
  await new Promise((resolve) => server.close(resolve));
  const scraped = await test.app.request('/metrics');
  expect(scraped.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  text = await scraped.text();
});

describe('GET /metrics on the inference app after traffic', () => {
  it('counts requests by route, status, model and cache outcome', () => {
    expect(value('svc_requests_total{route="/v1/chat/completions",status="200",model="mock/mock-value",provider="mock",cache="false"}')).toBeGreaterThanOrEqual(2);
    expect(value('svc_requests_total{route="/v1/chat/completions",status="200",model="mock/mock-value",provider="mock",cache="true"}')).toBe(1);
    expect(value('svc_requests_total{route="/v1/chat/completions",status="429",model="",provider="",cache=""}')).toBe(1);
  });

  it('has end-to-end, overhead, provider and first-token histograms, streams included', () => {
    expect(value('svc_request_duration_seconds_count{route="/v1/chat/completions",status="200"}')).toBeGreaterThanOrEqual(5);
    expect(value('svc_gateway_overhead_seconds_count{route="chat"}')).toBeGreaterThanOrEqual(2);
    expect(value('svc_gateway_overhead_seconds_count{route="chat_stream"}')).toBe(1);
    expect(value('svc_provider_duration_seconds_count{provider="mock",model="mock/mock-value",outcome="ok"}')).toBeGreaterThanOrEqual(3);
    expect(value('svc_provider_duration_seconds_count{provider="mock",model="mock/mock-value",outcome="error"}')).toBeGreaterThanOrEqual(1);
    expect(value('svc_time_to_first_token_seconds_count{provider="mock",model="mock/mock-value"}')).toBe(1);
  });

  it('counts tokens, cost, savings, cache hits by layer, provider errors by code and limit refusals', () => {
    expect(value('svc_tokens_total{direction="prompt",model="mock/mock-value",provider="mock"}')).toBeGreaterThan(0);
    expect(value('svc_tokens_total{direction="completion",model="mock/mock-value",provider="mock"}')).toBeGreaterThan(0);
    expect(value('svc_cost_usd_total{model="mock/mock-value",provider="mock"}')).toBeGreaterThan(0);
    expect(value('svc_savings_usd_total{model="mock/mock-value",provider="mock"}')).toBeGreaterThan(0);
    expect(value('svc_cache_hits_total{layer="l0",type="chat"}')).toBe(1);
    expect(text).toMatch(/svc_upstream_errors_total\{provider="mock",kind="[a-z_]+",status="503"\} [1-9]/);
    expect(value('svc_rate_limit_rejections_total{scope="rate"}')).toBe(1);
  });

  it('shows breaker states, the learn stage, the switches and what they shed', () => {
    expect(value('svc_breaker_state{provider="mock",model="mock/mock-speed"}')).toBe(2);
    expect(value('svc_learn_queue_depth')).toEqual(expect.any(Number));
    expect(value('svc_learn_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(value('svc_learn_processed_total')).toEqual(expect.any(Number));
    expect(value('svc_learn_failures_total')).toBe(0);
    expect(value('svc_degradation_level')).toBe(0);
    expect(value('svc_feature_flag_enabled{flag="semantic_cache"}')).toBe(1);
    expect(value('svc_stages_shed_total{stage="memory",reason="degradation"}')).toBe(1);
    expect(value('svc_process_cpu_seconds_total')).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from 'vitest';
import { BREAKER_STATE, createMetrics } from './metrics.js';

describe('createMetrics', () => {
  it('exposes every metric in Prometheus text format 0.0.4', async () => {
    const m = createMetrics();
    m.requests.inc({ route: '/v1/chat/completions', status: 200, model: 'gpt-4o-mini', provider: 'openai', cache: 'miss' });
    m.requestDuration.observe({ route: '/v1/chat/completions', status: 200 }, 0.42);
    m.gatewayOverhead.observe({ route: '/v1/chat/completions' }, 0.0003);
    m.providerDuration.observe({ provider: 'openai', model: 'gpt-4o-mini', outcome: 'success' }, 0.4);
    m.timeToFirstToken.observe({ provider: 'openai', model: 'gpt-4o-mini' }, 0.2);
    m.tokens.inc({ direction: 'prompt', model: 'gpt-4o-mini', provider: 'openai' }, 12);
    m.costUsd.inc({ model: 'gpt-4o-mini', provider: 'openai' }, 0.0001);
    m.savingsUsd.inc({ model: 'gpt-4o-mini', provider: 'openai' }, 0.002);
    m.upstreamErrors.inc({ provider: 'openai', kind: 'rate_limit', status: 429 });
    m.cacheHits.inc({ layer: 'l0', type: 'chat' });
    m.rateLimitRejections.inc({ scope: 'rpm' });
    m.learnQueueDepth.set(3);
    m.breakerState.set({ provider: 'openai', model: 'gpt-4o-mini' }, BREAKER_STATE.open);

    const text = await m.metrics();
    expect(m.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    for (const name of [
      'svc_requests_total',
      'svc_request_duration_seconds',
      'svc_gateway_overhead_seconds',
      'svc_provider_duration_seconds',
      'svc_time_to_first_token_seconds',
      'svc_tokens_total',
      'svc_cost_usd_total',
      'svc_savings_usd_total',
      'svc_upstream_errors_total',
      'svc_cache_hits_total',
      'svc_rate_limit_rejections_total',
      'svc_learn_queue_depth',
      'svc_breaker_state',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(text).toContain(
      'svc_requests_total{route="/v1/chat/completions",status="200",model="gpt-4o-mini",provider="openai",cache="miss"} 1',
    );
    expect(text).toContain('svc_breaker_state{provider="openai",model="gpt-4o-mini"} 2');
    expect(text).toContain('svc_gateway_overhead_seconds_bucket{le="0.00001",route="/v1/chat/completions"} 0');
    expect(text).toContain('svc_request_duration_seconds_bucket{le="60",route="/v1/chat/completions",status="200"} 1');
  });

  it('gives each instance its own registry', async () => {
    const a = createMetrics();
    const b = createMetrics();
    expect(await a.metrics()).toContain('svc_process_cpu_seconds_total');
    a.rateLimitRejections.inc({ scope: 'tpm' }, 5);
    expect(await a.metrics()).toContain('svc_rate_limit_rejections_total{scope="tpm"} 5');
    expect(await b.metrics()).not.toContain('scope="tpm"');
    expect(a.registry).not.toBe(b.registry);
  });

  it('applies the prefix to gateway and process metrics; process metrics can be left out', async () => {
    const plain = await createMetrics({ prefix: 'gw_', defaultMetrics: false }).metrics();
    expect(plain).toContain('gw_requests_total');
    expect(plain).not.toContain('svc_');
    expect(plain).not.toContain('gw_process_cpu');

    const withDefaults = await createMetrics({ prefix: 'gw_' }).metrics();
    expect(withDefaults).toContain('gw_process_cpu_seconds_total');
  });
});

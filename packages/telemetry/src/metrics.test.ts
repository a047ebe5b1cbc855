import { describe, expect, it } from 'vitest';
import { Histogram, Registry } from 'prom-client';
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
    m.stagesShed.inc({ stage: 'memory', reason: 'degradation' });
    m.watch({ learn: () => ({ depth: 3, processed: 10, failures: 1, oldestPendingAt: Date.now() - 2_000 }), degradationLevel: () => 1, flags: () => ({ memory: false, hedging: true }) });
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
      'svc_learn_lag_seconds',
      'svc_learn_processed_total',
      'svc_learn_failures_total',
      'svc_stages_shed_total',
      'svc_degradation_level',
      'svc_feature_flag_enabled',
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
    expect(text).toContain('svc_learn_queue_depth 3');
    expect(text).toContain('svc_learn_processed_total 10');
    expect(text).toMatch(/svc_learn_lag_seconds 2(\.\d+)?\n/);
    expect(text).toContain('svc_degradation_level 1');
    expect(text).toContain('svc_feature_flag_enabled{flag="memory"} 0');
    expect(text).toContain('svc_feature_flag_enabled{flag="hedging"} 1');
    expect(text).toContain('svc_stages_shed_total{stage="memory",reason="degradation"} 1');
  });

  it("exports shadow judging's totals, backlog and skips by reason", async () => {
    const m = createMetrics({ defaultMetrics: false });
    const figures = { queued: 9, dropped: 1, done: 7, failed: 2, judged: 5, overBudget: 3, sampledOpen: 6, sampledSettled: 4, skipped: { not_sampled: 40, no_store: 2 } };
    m.watch({ shadow: () => figures });
    const text = await m.metrics();
    for (const line of ['svc_shadow_queued_total 9', 'svc_shadow_dropped_total 1', 'svc_shadow_failed_total 2', 'svc_shadow_judged_total 5', 'svc_shadow_over_budget_total 3', 'svc_shadow_queue_depth 2', 'svc_shadow_sampled_total{choice="open"} 6', 'svc_shadow_sampled_total{choice="settled"} 4', 'svc_shadow_skipped_total{reason="not_sampled"} 40', 'svc_shadow_skipped_total{reason="no_store"} 2']) {
      expect(text).toContain(line);
    }
    // Totals follow the source (a scrape reads them afresh).
    figures.judged = 6;
    figures.sampledSettled = 5;
    const next = await m.metrics();
    expect(next).toContain('svc_shadow_judged_total 6');
    expect(next).toContain('svc_shadow_sampled_total{choice="settled"} 5');
  });

  it('exports no sampled totals for a sampler that is not focused', async () => {
    const m = createMetrics({ defaultMetrics: false });
    m.watch({ shadow: () => ({ queued: 1, dropped: 0, done: 1, failed: 0, judged: 1, overBudget: 0, skipped: {} }) });
    expect(await m.metrics()).not.toMatch(/svc_shadow_sampled_total\{/);
  });

  it('writes bound histograms exactly as prom-client does', async () => {
    const bound = createMetrics({ defaultMetrics: false });
    const reference = new Histogram({ name: 'svc_gateway_overhead_seconds', help: 'Time spent in the gateway excluding provider calls, in seconds.', labelNames: ['route'], buckets: [0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1], registers: [] });
    const series = bound.gatewayOverhead.series('chat');
    for (const seconds of [0.000004, 0.00003, 0.0003, 0.0003, 0.2, 0.00005]) {
      series.observe(seconds);
      reference.observe({ route: 'chat' }, seconds);
    }
    const registry = new Registry();
    registry.registerMetric(reference);
    const expected = (await registry.metrics()).trim();
    const text = await bound.metrics();
    const start = text.indexOf('# HELP svc_gateway_overhead_seconds');
    expect(text.slice(start, start + expected.length)).toBe(expected);
  });

  it('adds to bound counters between scrapes, and keeps their totals across scrapes', async () => {
    const m = createMetrics({ defaultMetrics: false });
    const model = m.model('openai', 'openai/gpt-4o-mini');
    expect(m.model('openai', 'openai/gpt-4o-mini')).toBe(model);
    model.promptTokens.inc(10);
    model.costUsd.inc(0.5);
    expect(await m.metrics()).toContain('svc_tokens_total{direction="prompt",model="openai/gpt-4o-mini",provider="openai"} 10');
    model.promptTokens.inc(5);
    model.promptTokens.inc(-3);
    m.tokens.inc({ direction: 'prompt', model: 'openai/gpt-4o-mini', provider: 'openai' }, 1);
    const text = await m.metrics();
    expect(text).toContain('svc_tokens_total{direction="prompt",model="openai/gpt-4o-mini",provider="openai"} 16');
    expect(text).toContain('svc_cost_usd_total{model="openai/gpt-4o-mini",provider="openai"} 0.5');
    // Bound but never used: exported at 0, so a rate() sees the series from its first scrape.
    expect(text).toContain('svc_tokens_total{direction="completion",model="openai/gpt-4o-mini",provider="openai"} 0');
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

import { randomUUID } from 'node:crypto';
import type { Scope } from '@svc/core';
import { createInferenceApp } from '@svc/inference';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { json, MASTER_KEY, type ReportTestContext, startReportRuntime } from './admin-routing-test-kit.js';

/** `/degradation` and `/flags` through the control plane, proven on the inference app of the same runtime. */

let ctx: ReportTestContext;
let inference: ReturnType<typeof createInferenceApp>;
let observer: string;
let chatOnly: string;
let client: string;
let clientOrg: string;

const keyOf = async (scopes: Scope[], orgId?: string) => (await ctx.runtime.authenticator.issue({ orgId: orgId ?? (await ctx.org('switches')).id, scopes })).secret;

beforeAll(async () => {
  ctx = await startReportRuntime();
  inference = createInferenceApp({ ...ctx.runtime, maxBodyBytes: 64 * 1024 });
  observer = await keyOf(['observability:read']);
  chatOnly = await keyOf(['inference:chat']);
  clientOrg = (await ctx.org('client')).id;
  client = await keyOf(['inference:chat', 'memory:read'], clientOrg);
});
afterEach(async () => {
  // Every test starts from the defaults.
  await ctx.runtime.switches.setDegradation('none', null, null);
  for (const flag of ctx.runtime.switches.flags()) if (!flag.enabled) await ctx.runtime.switches.setFlag(flag.key, true, null);
});
afterAll(async () => {
  await ctx?.runtime.close();
});

const call = (method: string, path: string, key: string | null, body?: string) =>
  ctx.control.request(path, {
    method,
    headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  });

const chat = (content: string, mode = 'full', model = 'mock/mock-value') =>
  inference.request('/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: `Bearer ${client}`, 'content-type': 'application/json', 'x-intelligence-mode': mode },
    body: JSON.stringify({ model, messages: [{ role: 'user', content }] }),
  });

async function remembered(text: string): Promise<boolean> {
  await ctx.runtime.memory.idle();
  const response = await inference.request('/v1/memory/search', {
    method: 'POST',
    headers: { authorization: `Bearer ${client}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: text }),
  });
  return ((await response.json()) as { data: { text: string }[] }).data.some((memory) => memory.text === text);
}

async function expectBadRequest(response: Response, param: string | null): Promise<void> {
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', param } });
}

describe('/v1/observability/degradation', () => {
  it('needs a key (401) with observability:read (403) to read; the admin role to change (403)', async () => {
    expect((await call('GET', '/v1/observability/degradation', null)).status).toBe(401);
    expect((await call('GET', '/v1/observability/degradation', chatOnly)).status).toBe(403);
    expect(await json(await call('GET', '/v1/observability/degradation', observer))).toMatchObject({
      object: 'degradation',
      level: 'none',
      shed_stages: [],
      updated_at: null,
      levels: { none: [], light: ['memory', 'hedging'], heavy: ['memory', 'hedging', 'semantic_cache', 'speculation', 'verification_reask'] },
    });
    expect((await call('PUT', '/v1/observability/degradation', null, '{"level":"light"}')).status).toBe(401);
    const denied = await call('PUT', '/v1/observability/degradation', observer, '{"level":"light"}');
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ error: { code: 'forbidden' } });
    expect(ctx.runtime.switches.current.level).toBe('none');
  });

  it('refuses a bad body with 400 naming the field', async () => {
    await expectBadRequest(await call('PUT', '/v1/observability/degradation', MASTER_KEY, 'not json'), null);
    await expectBadRequest(await call('PUT', '/v1/observability/degradation', MASTER_KEY, '{}'), 'level');
    await expectBadRequest(await call('PUT', '/v1/observability/degradation', MASTER_KEY, '{"level":"extreme"}'), 'level');
    await expectBadRequest(await call('PUT', '/v1/observability/degradation', MASTER_KEY, '{"level":"light","reason":5}'), 'reason');
  });

  it('light stops memory recall and storage; none brings them back', async () => {
    const changed = await json(await call('PUT', '/v1/observability/degradation', MASTER_KEY, JSON.stringify({ level: 'light', reason: 'provider incident' })));
    expect(changed).toMatchObject({ level: 'light', previous_level: 'none', shed_stages: ['memory', 'hedging'], reason: 'provider incident', updated_by: expect.stringMatching(/^key_/) });
    expect(await json(await call('GET', '/v1/observability/degradation', observer))).toMatchObject({ level: 'light', reason: 'provider incident' });

    const shed = `My parking spot is number ${randomUUID().slice(0, 6)}`;
    const degraded = await chat(shed);
    expect(degraded.headers.get('x-svc-degradation')).toBe('light');
    expect(degraded.headers.get('x-svc-shed-stages')).toBe('memory');
    expect((await degraded.json()) as object).toMatchObject({ svc_metadata: { degradation_level: 'light', shed_stages: ['memory'] } });
    expect(await remembered(shed)).toBe(false);

    await json(await call('PUT', '/v1/observability/degradation', MASTER_KEY, '{"level":"none"}'));
    const kept = `My locker is number ${randomUUID().slice(0, 6)}`;
    const normal = await chat(kept);
    expect(normal.headers.get('x-svc-degradation')).toBeNull();
    expect(await remembered(kept)).toBe(true);
  });

  it('heavy stops semantic cache hits', async () => {
    // Without the exact cache, an identical question is answered by the semantic cache.
    await json(await call('PUT', '/v1/observability/flags/exact_cache', MASTER_KEY, '{"enabled":false}'));
    const question = `Explain in two sentences how a circuit breaker protects a gateway from a failing provider ${randomUUID()}`;
    expect((await chat(question, 'cache')).headers.get('x-svc-cache-hit')).toBe('false');
    expect((await chat(question, 'cache')).headers.get('x-svc-cache-type')).toBe('semantic');
    await json(await call('PUT', '/v1/observability/degradation', MASTER_KEY, '{"level":"heavy"}'));
    const heavy = await chat(question, 'cache');
    expect(heavy.headers.get('x-svc-cache-hit')).toBe('false');
    expect(heavy.headers.get('x-svc-shed-stages')).toBe('exact_cache,semantic_cache');
    expect(await (await ctx.control.request('/metrics')).text()).toContain('svc_degradation_level 2');
  });
});

describe('/v1/observability/flags', () => {
  it('lists every flag with its default, state and what it gates', async () => {
    expect((await call('GET', '/v1/observability/flags', null)).status).toBe(401);
    expect((await call('GET', '/v1/observability/flags', chatOnly)).status).toBe(403);
    const list = await json<{ object: string; data: Record<string, unknown>[] }>(await call('GET', '/v1/observability/flags', observer));
    expect(list.object).toBe('list');
    expect(list.data.map((flag) => flag.key)).toEqual(['exact_cache', 'semantic_cache', 'memory', 'hedging', 'speculation', 'output_verification', 'router_exploration']);
    // Nothing in this file touches output_verification: as configured.
    expect(list.data.find((flag) => flag.key === 'output_verification')).toEqual({
      object: 'flag',
      key: 'output_verification',
      enabled: true,
      description: expect.stringContaining('JSON output verification'),
      default_enabled: true,
      overridden: false,
      available: true,
      updated_at: null,
      updated_by: null,
    });
  });

  it('refuses an unknown flag (404), a bad body (400) and a caller without the admin role (403)', async () => {
    const unknown = await call('PUT', '/v1/observability/flags/warp_drive', MASTER_KEY, '{"enabled":true}');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { type: 'not_found_error', param: 'key' } });
    await expectBadRequest(await call('PUT', '/v1/observability/flags/memory', MASTER_KEY, '{"enabled":"no"}'), 'enabled');
    await expectBadRequest(await call('PUT', '/v1/observability/flags/memory', MASTER_KEY, '{}'), 'enabled');
    await expectBadRequest(await call('PUT', '/v1/observability/flags/memory', MASTER_KEY, '[1'), null);
    expect((await call('PUT', '/v1/observability/flags/memory', null, '{"enabled":false}')).status).toBe(401);
    const denied = await call('PUT', '/v1/observability/flags/memory', observer, '{"enabled":false}');
    expect(denied.status).toBe(403);
    expect(ctx.runtime.switches.current.flags.memory).toBe(true);
  });

  it('exact_cache off skips the exact layer (the semantic one answers); with semantic_cache off too the request goes upstream', async () => {
    const question = `how many legs does a spider have, and why eight ${randomUUID()}`;
    await chat(question, 'cache');
    expect((await chat(question, 'cache')).headers.get('x-svc-cache-type')).toBe('exact');
    const off = await json(await call('PUT', '/v1/observability/flags/exact_cache', MASTER_KEY, '{"enabled":false}'));
    expect(off).toMatchObject({ key: 'exact_cache', enabled: false, default_enabled: true, overridden: true, updated_by: expect.stringMatching(/^key_/) });
    expect(Date.parse((off as { updated_at: string }).updated_at)).toBeLessThanOrEqual(Date.now());
    const semantic = await chat(question, 'cache');
    expect(semantic.headers.get('x-svc-cache-type')).toBe('semantic');
    expect(semantic.headers.get('x-svc-shed-stages')).toBe('exact_cache');
    await json(await call('PUT', '/v1/observability/flags/semantic_cache', MASTER_KEY, '{"enabled":false}'));
    const missed = await chat(question, 'cache');
    expect(missed.headers.get('x-svc-cache-hit')).toBe('false');
    expect(missed.headers.get('x-svc-shed-stages')).toBe('exact_cache,semantic_cache');
    expect(await (await inference.request('/metrics')).text()).toContain('svc_feature_flag_enabled{flag="exact_cache"} 0');
    await json(await call('PUT', '/v1/observability/flags/exact_cache', MASTER_KEY, '{"enabled":true}'));
    expect((await chat(question, 'cache')).headers.get('x-svc-cache-type')).toBe('exact');
  });

  it('memory off: nothing recalled or stored in full mode', async () => {
    await json(await call('PUT', '/v1/observability/flags/memory', MASTER_KEY, '{"enabled":false}'));
    const text = `My bike lock code is ${randomUUID().slice(0, 6)}`;
    const response = await chat(text);
    expect(response.headers.get('x-svc-shed-stages')).toBe('memory');
    expect(response.headers.get('x-svc-degradation')).toBeNull();
    expect(await remembered(text)).toBe(false);
  });

  it('router_exploration off takes the exploration bonus out of the router’s quality estimates at once', async () => {
    // A caller-fault failure teaches the router nothing, so both decisions see the same learned
    // state; one prompt for both, so their hashed text features (and success estimates) are equal.
    const prompt = `summarise the history of the printing press [mock:error=400] ${randomUUID()}`;
    // The decision is found by its request id: a flush writes earlier tests' decisions in the
    // same batch, so "the latest" may be one of theirs.
    const ask = async () => {
      const response = await chat(prompt, 'cache', 'svc/auto');
      expect(response.status).toBe(400);
      await ctx.runtime.learn.flush();
      const decision = await ctx.runtime.db.decisions.get(response.headers.get('x-request-id')!);
      return new Map((decision!.candidates as { id: string; quality: number }[]).map((c) => [c.id, c.quality]));
    };
    // Outcomes of the earlier tests' requests may still be on their way to the router: one ask
    // first, so both measured decisions see one settled state.
    await ctx.runtime.memory.idle();
    await ask();
    const exploring = await ask();
    await json(await call('PUT', '/v1/observability/flags/router_exploration', MASTER_KEY, '{"enabled":false}'));
    expect(ctx.runtime.switches.current.flags.router_exploration).toBe(false);
    const greedy = await ask();
    expect(greedy.size).toBeGreaterThan(1);
    // Every estimate loses its bonus (none more than the 0.05 ceiling); a model whose learned
    // adjustment already sits at the router's bound had none to lose.
    const bonuses = [...greedy].map(([id, quality]) => ({ id, bonus: exploring.get(id)! - quality }));
    for (const { id, bonus } of bonuses) {
      expect(bonus, id).toBeGreaterThanOrEqual(-1e-9);
      expect(bonus, id).toBeLessThanOrEqual(0.05 + 1e-9);
    }
    expect(bonuses.some(({ bonus }) => bonus > 0.001)).toBe(true);
  });
});

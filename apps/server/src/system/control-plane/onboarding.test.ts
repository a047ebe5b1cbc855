import { randomUUID } from 'node:crypto';
import { createInferenceApp } from '@svc/inference';
import { newPasskey, newUser } from '@svc/db/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReportTestContext, json, startReportRuntime } from './admin-routing-test-kit.js';
import { expectBearer, expectInvalid, keyWith } from './control-test-kit.js';

let ctx: ReportTestContext;
beforeAll(async () => {
  ctx = await startReportRuntime();
});
afterAll(async () => {
  await ctx?.runtime.close();
});

interface Progress {
  object: string;
  org_id: string;
  completed_steps: number;
  total_steps: number;
  percent_complete: number;
  done: boolean;
  steps: { step: string; completion: string; completed: boolean; completed_at: string | null }[];
}
interface NextStep {
  object: string;
  step: string;
  completion: string;
  action: string;
  remaining_steps: number;
}

const done = (progress: Progress) => progress.steps.filter((s) => s.completed).map((s) => s.step);

describe('/v1/onboarding', () => {
  it('needs a key (401) with observability:read (403)', async () => {
    await expectBearer(ctx, '/v1/onboarding/progress', 'observability:read');
    await expectBearer(ctx, '/v1/onboarding/progress', 'observability:read', { method: 'POST', body: { step: 'go_live', completed: true } });
    await expectBearer(ctx, '/v1/onboarding/next-step', 'observability:read');
  });

  it('refuses unknown steps, bad bodies and derived steps set by hand (400 naming the field)', async () => {
    const { key } = await keyWith(ctx, ['observability:read']);
    const post = (body: unknown) => ctx.request('/v1/onboarding/progress', { body, key });
    await expectInvalid(await post('nope'), null);
    await expectInvalid(await post({ step: 'become_famous', completed: true }), 'step');
    await expectInvalid(await post({ completed: true }), 'step');
    await expectInvalid(await post({ step: 'go_live' }), 'completed');
    await expectInvalid(await post({ step: 'go_live', completed: 'yes' }), 'completed');
    const derived = await post({ step: 'first_request', completed: true });
    await expectInvalid(derived.clone(), 'step');
    expect(((await derived.json()) as { error: { message: string } }).error.message).toContain('cannot be set by hand');
  });

  it('flips each step as the organisation creates a key, is served, hits the cache, stores a BYOK key, an SLO, an output config, registers a passkey; go_live by hand', async () => {
    const org = await json<{ id: string }>(await ctx.request('/v1/admin/orgs', { body: { name: `onboarding-${randomUUID()}` } }), 201);
    const progress = async () => json<Progress>(await ctx.request(`/v1/onboarding/progress?org_id=${org.id}`));
    const next = async () => json<NextStep>(await ctx.request(`/v1/onboarding/next-step?org_id=${org.id}`));

    const fresh = await progress();
    expect(fresh).toMatchObject({ object: 'onboarding_progress', org_id: org.id, completed_steps: 0, total_steps: 8, percent_complete: 0, done: false });
    expect(fresh.steps.map((s) => [s.step, s.completion])).toEqual([
      ['create_api_key', 'derived'],
      ['first_request', 'derived'],
      ['first_cache_hit', 'derived'],
      ['add_provider_key', 'derived'],
      ['create_slo', 'derived'],
      ['configure_output', 'derived'],
      ['register_passkey', 'derived'],
      ['go_live', 'manual'],
    ]);
    expect(await next()).toMatchObject({ object: 'onboarding_next_step', step: 'create_api_key', completion: 'derived', remaining_steps: 8 });

    const { key } = await json<{ key: string }>(await ctx.request('/v1/admin/keys', { body: { org_id: org.id } }), 201);
    expect(done(await progress())).toEqual(['create_api_key']);
    expect((await next()).step).toBe('first_request');

    const inference = createInferenceApp({ ...ctx.runtime, maxBodyBytes: 64 * 1024 });
    const chat = () =>
      inference.request('/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'mock/mock-value', temperature: 0, messages: [{ role: 'user', content: 'What is an onboarding checklist?' }] }),
      });
    expect((await chat()).status).toBe(200);
    await ctx.runtime.learn.flush();
    expect(done(await progress())).toEqual(['create_api_key', 'first_request']);
    const hit = await chat();
    expect(hit.headers.get('x-svc-cache-hit')).toBe('true');
    await ctx.runtime.learn.flush();
    expect(done(await progress())).toContain('first_cache_hit');

    expect((await ctx.request(`/v1/admin/orgs/${org.id}/provider-keys/openai`, { method: 'PUT', body: { api_key: 'sk-byok-onboarding-0123456789' } })).status).toBe(200);
    expect(done(await progress())).toContain('add_provider_key');
    expect((await ctx.request('/v1/slo', { body: { name: 'availability', metric: 'availability', threshold: 0.99, target: 0.9, window_days: 7 }, key })).status).toBe(200);
    expect((await ctx.request('/v1/output/config', { method: 'PUT', body: { output_verification: 'native' }, key })).status).toBe(200);
    const derived = await progress();
    expect(done(derived)).toEqual(['create_api_key', 'first_request', 'first_cache_hit', 'add_provider_key', 'create_slo', 'configure_output']);
    expect(derived.steps.every((s) => (s.completed ? Date.parse(s.completed_at!) <= Date.now() : s.completed_at === null))).toBe(true);
    expect(await next()).toMatchObject({ step: 'register_passkey', completion: 'derived', remaining_steps: 2 });
    // A dashboard user of the organisation registers a passkey (the ceremony itself is tested in auth.test.ts).
    const user = await ctx.runtime.db.dashboardUsers.create(newUser(org.id));
    await ctx.runtime.db.passkeys.create(newPasskey(user.id));
    expect(done(await progress())).toContain('register_passkey');
    expect(await next()).toMatchObject({ step: 'go_live', completion: 'manual', remaining_steps: 1 });

    // The organisation's own key marks the manual step (201), and every step is done: no next step.
    const marked = await ctx.request('/v1/onboarding/progress', { body: { step: 'go_live', completed: true }, key });
    expect(marked.status).toBe(201);
    expect(await marked.json()).toMatchObject({ completed_steps: 8, percent_complete: 100, done: true });
    const none = await ctx.request('/v1/onboarding/next-step', { key });
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ error: { type: 'not_found_error', code: 'onboarding_complete' } });

    const unmarked = await json<Progress>(await ctx.request('/v1/onboarding/progress', { body: { step: 'go_live', completed: false }, key }), 201);
    expect(unmarked).toMatchObject({ completed_steps: 7, done: false });
    expect((await next()).step).toBe('go_live');
  });

  it('another organisation only for an admin (403); 404 for one that does not exist', async () => {
    const { key } = await keyWith(ctx, ['observability:read']);
    const other = await ctx.org('other');
    const denied = await ctx.request(`/v1/onboarding/progress?org_id=${other.id}`, { key });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ error: { code: 'tenant_violation' } });
    expect((await ctx.request(`/v1/onboarding/next-step?org_id=${randomUUID()}`)).status).toBe(404);
    expect((await ctx.request(`/v1/onboarding/progress?org_id=${randomUUID()}`, { body: { step: 'go_live', completed: true } })).status).toBe(404);
    const own = await json<Progress>(await ctx.request('/v1/onboarding/progress', { key }));
    expect(done(own)).toEqual(['create_api_key']);
  });
});

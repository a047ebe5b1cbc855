import type { StreamEvent } from '@svc/core';
import { Gateway } from '@svc/pipeline';
import type { Provider } from '@svc/providers';
import { describe, expect, it } from 'vitest';
import { createInferenceApp } from '@svc/inference';
import { useTestApp } from './test-app.js';

const master = 'sk-svc-inference-app-test-master-r6ZiOE8zPGCWx5Kb7GuFnREo';
const testApp = useTestApp(master);

const auth = (key = master) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
const chat = (body: unknown, headers: Record<string, string> = auth()) =>
  testApp.app.request('/v1/chat/completions', { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
const valid = { model: 'svc/auto', messages: [{ role: 'user', content: 'hi' }] };

async function expectError(response: Response, status: number, type: string, code?: string, param?: string | null) {
  expect(response.status).toBe(status);
  expect(response.headers.get('x-error-id')).toMatch(/^err_/);
  const body = (await response.json()) as { error: Record<string, unknown> };
  expect(body.error).toMatchObject({ type, ...(code ? { code } : {}), ...(param !== undefined ? { param } : {}) });
  expect(typeof body.error.message).toBe('string');
}

describe('probes', () => {
  it('serves /health, /ready with dependencies, and Prometheus /metrics', async () => {
    expect(await (await testApp.app.request('/health')).json()).toEqual({ status: 'ok' });
    const ready = await testApp.app.request('/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      ready: true,
      status: 'ready',
      dependencies: { database: { status: 'up', backend: 'pglite' }, kv: { status: 'up', backend: 'in_process' }, vector_db: { status: 'up' } },
    });
    await chat(valid);
    const metrics = await testApp.app.request('/metrics');
    expect(metrics.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const text = await metrics.text();
    expect(text).toMatch(/svc_requests_total\{route="\/v1\/chat\/completions",status="200"/);
    expect(text).toContain('svc_gateway_overhead_seconds_bucket');
    expect(text).toContain('svc_cost_usd_total');
  });
});

describe('authentication', () => {
  it('rejects a missing or unknown key with 401 invalid_api_key', async () => {
    await expectError(await chat(valid, { 'content-type': 'application/json' }), 401, 'authentication_error', 'invalid_api_key');
    await expectError(await chat(valid, auth('sk-svc-nope')), 401, 'authentication_error', 'invalid_api_key');
    await expectError(await testApp.app.request('/v1/models', { headers: { authorization: 'Basic abc' } }), 401, 'authentication_error');
  });

  it('accepts x-api-key as well as Bearer', async () => {
    expect((await testApp.app.request('/v1/models', { headers: { 'x-api-key': master } })).status).toBe(200);
  });

  it('answers the HEAD probe with 204, or 401 without a body', async () => {
    const ok = await testApp.app.request('/v1/chat/completions', { method: 'HEAD', headers: auth() });
    expect(ok.status).toBe(204);
    const bad = await testApp.app.request('/v1/chat/completions', { method: 'HEAD', headers: auth('sk-svc-bad') });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('x-error-id')).toBeTruthy();
    expect((await testApp.app.request('/v1/chat/completions', { headers: auth() })).status).toBe(405);
  });

  it('reports expired and revoked keys with their own codes, revocation taking effect at once', async () => {
    const org = await testApp.runtime.db.orgs.ensure('auth-test');
    const expired = await testApp.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'], expiresAt: new Date(Date.now() - 1000) });
    await expectError(await chat(valid, auth(expired.secret)), 401, 'authentication_error', 'expired_api_key');
    const live = await testApp.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    expect((await chat(valid, auth(live.secret))).status).toBe(200);
    await testApp.runtime.authenticator.revoke(live.record.id);
    await expectError(await chat(valid, auth(live.secret)), 401, 'authentication_error', 'revoked_api_key');
  });

  it('enforces scopes with 403 insufficient_scopes', async () => {
    const org = await testApp.runtime.db.orgs.ensure('scope-test');
    const embeddingsOnly = await testApp.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:embeddings'] });
    await expectError(await chat(valid, auth(embeddingsOnly.secret)), 403, 'authorization_error', 'insufficient_scopes');
  });
});

describe('request errors', () => {
  it('answers malformed JSON and an empty body with 400', async () => {
    await expectError(await chat('{"model": '), 400, 'invalid_request_error', 'invalid_json');
    await expectError(await chat(''), 400, 'invalid_request_error', 'invalid_json');
  });

  it('answers bodies over the limit with 413', async () => {
    const big = { ...valid, messages: [{ role: 'user', content: 'x'.repeat(70 * 1024) }] };
    await expectError(await chat(big), 413, 'invalid_request_error', 'payload_too_large');
  });

  it('answers unknown routes with 404 in the error shape', async () => {
    await expectError(await testApp.app.request('/v1/nothing-here', { headers: auth() }), 404, 'not_found_error', 'resource_not_found');
    await expectError(await testApp.app.request('/nope'), 404, 'not_found_error');
  });

  it('answers an unknown model slug on retrieve with 404', async () => {
    await expectError(await testApp.app.request('/v1/models/openai%2Fgpt-4o-mini', { headers: auth() }), 404, 'not_found_error');
    expect((await testApp.app.request('/v1/models/mock%2Fmock-value', { headers: auth() })).status).toBe(200);
    expect((await testApp.app.request('/v1/models/mock/mock-value', { headers: auth() })).status).toBe(200);
  });

  // Every validation limit of the chat request, sent over HTTP: 400 with `param` naming the field.
  const limits: [string, Record<string, unknown>, string][] = [
    ['missing model', { messages: valid.messages }, 'model'],
    ['empty messages', { model: 'svc/auto', messages: [] }, 'messages'],
    ['n 0', { ...valid, n: 0 }, 'n'],
    ['n 9', { ...valid, n: 9 }, 'n'],
    ['temperature -0.1', { ...valid, temperature: -0.1 }, 'temperature'],
    ['temperature 2.1', { ...valid, temperature: 2.1 }, 'temperature'],
    ['frequency_penalty -2.5', { ...valid, frequency_penalty: -2.5 }, 'frequency_penalty'],
    ['presence_penalty 2.5', { ...valid, presence_penalty: 2.5 }, 'presence_penalty'],
    ['top_logprobs 21', { ...valid, logprobs: true, top_logprobs: 21 }, 'top_logprobs'],
    ['bad response_format', { ...valid, response_format: { type: 'yaml' } }, 'response_format.type'],
    ['json_schema without name', { ...valid, response_format: { type: 'json_schema', json_schema: { schema: {} } } }, 'response_format.json_schema.name'],
    ['bad reasoning_effort', { ...valid, reasoning_effort: 'extreme' }, 'reasoning_effort'],
    ['max_tier 4', { ...valid, routing_hints: { max_tier: 4 } }, 'routing_hints.max_tier'],
    ['bad force_tier', { ...valid, routing_override: { force_tier: 'T4' } }, 'routing_override.force_tier'],
    ['max_chain_steps 0', { ...valid, svc: { max_chain_steps: 0 } }, 'svc.max_chain_steps'],
    ['max_chain_steps 65536', { ...valid, svc: { max_chain_steps: 65536 } }, 'svc.max_chain_steps'],
    ['chain_timeout_secs -1', { ...valid, svc: { chain_timeout_secs: -1 } }, 'svc.chain_timeout_secs'],
    ['chain_timeout_secs 2^32', { ...valid, svc: { chain_timeout_secs: 4294967296 } }, 'svc.chain_timeout_secs'],
    ['cache_ttl_secs 86401', { ...valid, svc: { cache_ttl_secs: 86401 } }, 'svc.cache_ttl_secs'],
    ['bad intelligence_mode', { ...valid, svc: { intelligence_mode: 'turbo' } }, 'svc.intelligence_mode'],
  ];
  it('answers an unknown model with 404 model_not_found, as OpenAI does', async () => {
    await expectError(await chat({ model: 'acme/unknown', messages: valid.messages }), 404, 'not_found_error', 'model_not_found', 'model');
  });

  it.each(limits)('rejects %s', async (_name, body, param) => {
    await expectError(await chat(body), 400, 'invalid_request_error', undefined, param);
  });

  it('accepts the edge values and clamps preference_dial', async () => {
    const edge = { ...valid, n: 8, temperature: 2, top_logprobs: 20, logprobs: true, frequency_penalty: -2, presence_penalty: 2, routing_hints: { preference_dial: 7 }, routing_override: { force_tier: 'tier-2' } };
    const response = await chat(edge);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { choices: unknown[] }).choices).toHaveLength(8);
  });

  it('rejects an unknown X-Intelligence-Mode and reports the resolved one', async () => {
    await expectError(await chat(valid, { ...auth(), 'x-intelligence-mode': 'turbo' }), 400, 'invalid_request_error', undefined, 'X-Intelligence-Mode');
    const proxied = await chat({ ...valid, svc: { intelligence_mode: 'cache' } }, { ...auth(), 'x-intelligence-mode': 'proxy' });
    expect(proxied.headers.get('x-svc-intelligence-mode')).toBe('proxy');
    const body = (await proxied.json()) as { svc_metadata: { intelligence_mode: string } };
    expect(body.svc_metadata.intelligence_mode).toBe('proxy');
  });
});

describe('routing controls over HTTP', () => {
  type Answer = { svc_metadata: Record<string, unknown> };

  it('honours force_tier in any accepted form and reports the tier used', async () => {
    for (const [form, tier] of [['T1', 'T1'], ['tier-3', 'T3'], ['tier2', 'T2']]) {
      const response = await chat({ ...valid, routing_override: { force_tier: form } });
      expect(response.headers.get('x-svc-tier-used')).toBe(tier);
      expect(((await response.json()) as Answer).svc_metadata).toMatchObject({ tier, decision_source: 'Router' });
    }
  });

  it('maps legacy headers into the request and its metadata, the body winning', async () => {
    const response = await chat(valid, { ...auth(), 'x-svc-tier': 'tier-3', 'x-svc-lane': 'smart', 'x-svc-run-id': 'run-42' });
    expect(response.headers.get('x-svc-tier-used')).toBe('T3');
    expect(response.headers.get('x-svc-lane-used')).toBe('smart');
    const requestId = response.headers.get('x-svc-request-id')!;
    await testApp.runtime.learn.flush();
    expect((await testApp.runtime.db.decisions.get(requestId))?.details).toMatchObject({ metadata: { run_id: 'run-42', 'x-svc-tier': 'tier-3', 'x-svc-lane': 'smart' } });
    const bodyWins = await chat({ ...valid, routing_override: { force_tier: 'T1' } }, { ...auth(), 'x-svc-tier': 'T3' });
    expect(bodyWins.headers.get('x-svc-tier-used')).toBe('T1');
  });

  it('rejects a legacy header of the wrong kind with 400 naming it', async () => {
    await expectError(await chat(valid, { ...auth(), 'x-svc-lane': 'warp' }), 400, 'invalid_request_error', 'validation_error', 'x-svc-lane');
    await expectError(await chat(valid, { ...auth(), 'x-svc-tier': '4' }), 400, 'invalid_request_error', 'validation_error', 'x-svc-tier');
  });

  it('reports force_provider as accepted but not applied', async () => {
    const response = await chat({ ...valid, routing_override: { force_provider: 'openai' } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Answer).svc_metadata.not_applied).toEqual(['routing_override.force_provider']);
  });

  it('enforces max_chain_steps of a long-horizon chain with 409, per chain', async () => {
    const step = (chain: string) => chat({ ...valid, svc: { workflow_type: 'long_horizon_autonomous', chain_id: chain, max_chain_steps: 2 } });
    const chain = `chain-${Math.random()}`;
    expect((await step(chain)).status).toBe(200);
    expect((await step(chain)).status).toBe(200);
    await expectError(await step(chain), 409, 'invalid_request_error', 'chain_step_limit_exceeded', 'svc.max_chain_steps');
    expect((await step(`${chain}-b`)).status).toBe(200);
  });

  it('continues a conversation on its model (sticky) unless chain_routing is mixed', async () => {
    const conversation = `conv-${Math.random()}`;
    // Content of its own, so no earlier answer is served from the cache.
    const turn = { model: 'svc/auto', messages: [{ role: 'user', content: `hi from ${conversation}` }] };
    const first = await chat({ ...turn, svc: { conversation_id: conversation }, routing_override: { force_tier: 'T1' } });
    const model = first.headers.get('x-svc-model');
    await new Promise((resolve) => setImmediate(resolve));
    const next = await chat({ ...turn, svc: { conversation_id: conversation } });
    expect(next.headers.get('x-svc-model')).toBe(model);
    expect(((await next.json()) as Answer).svc_metadata.decision_source).toBe('Sticky');
    // chain_routing does not change the answer: without enable_cache false the cache would serve it.
    const mixed = await chat({ ...turn, svc: { conversation_id: conversation, enable_cache: false }, routing_hints: { chain_routing: 'mixed' } });
    expect(((await mixed.json()) as Answer).svc_metadata.decision_source).toBe('Router');
  });
});

describe('limits', () => {
  const limited = async (limits: { rpmLimit?: number; tpmLimit?: number; monthlyBudgetUsd?: number; tokenQuota?: number }) => {
    const org = await testApp.runtime.db.orgs.create({ name: `limits-${Math.random()}`, ...limits });
    return (await testApp.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] })).secret;
  };
  const ask = (key: string, i: number) => chat({ model: 'mock/mock-speed', messages: [{ role: 'user', content: `limit test ${i} ${Math.random()}` }] }, auth(key));

  it('answers 429 rate_limit_exceeded with retry-after and x-ratelimit-* once the RPM is used up', async () => {
    const key = await limited({ rpmLimit: 2 });
    const first = await ask(key, 1);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit-requests')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining-requests')).toBe('1');
    expect((await ask(key, 2)).status).toBe(200);
    const refused = await ask(key, 3);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await expectError(refused, 429, 'rate_limit_error', 'rate_limit_exceeded');
  });

  it('answers 402 billing_error when the monthly budget or the token quota cannot cover a request', async () => {
    await expectError(await ask(await limited({ monthlyBudgetUsd: 0.000001 }), 1), 402, 'billing_error', 'budget_exceeded');
    await expectError(await ask(await limited({ tokenQuota: 10 }), 1), 402, 'billing_error', 'quota_exceeded');
  });

  it('settles the actual usage: a streamed answer is counted against the token quota', async () => {
    const org = await testApp.runtime.db.orgs.create({ name: `quota-${Math.random()}`, tokenQuota: 100_000 });
    const key = (await testApp.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] })).secret;
    const response = await chat({ model: 'mock/mock-speed', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'count me' }] }, auth(key));
    await response.text();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const spend = await testApp.runtime.limiter.spend(org);
    expect(spend.tokens).toBeGreaterThan(0);
    expect(spend.reservedTokens).toBe(0);
  });
});

describe('settings and the intelligence mode resolution order', () => {
  const put = (body: unknown, key: string) => testApp.app.request('/v1/settings', { method: 'PUT', headers: auth(key), body: JSON.stringify(body) });
  const modeOf = async (response: Response) => {
    expect(response.status).toBe(200);
    const body = (await response.json()) as { svc_metadata: { intelligence_mode: string } };
    expect(response.headers.get('x-svc-intelligence-mode')).toBe(body.svc_metadata.intelligence_mode);
    return body.svc_metadata.intelligence_mode;
  };

  it('header > body > tenant default (PUT /v1/settings) > full', async () => {
    const org = await testApp.runtime.db.orgs.ensure(`settings-${Math.random()}`);
    const key = (await testApp.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat', 'settings:write'] })).secret;
    expect(await modeOf(await chat(valid, auth(key)))).toBe('full');
    const saved = await put({ default_intelligence_mode: 'cache' }, key);
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ org_id: org.id, default_intelligence_mode: 'cache' });
    expect(await modeOf(await chat(valid, auth(key)))).toBe('cache');
    expect(await modeOf(await chat({ ...valid, svc: { intelligence_mode: 'full' } }, auth(key)))).toBe('full');
    expect(await modeOf(await chat({ ...valid, svc: { intelligence_mode: 'full' } }, { ...auth(key), 'x-intelligence-mode': 'proxy' }))).toBe('proxy');
    expect(await (await testApp.app.request('/v1/settings', { headers: auth(key) })).json()).toMatchObject({ default_intelligence_mode: 'cache' });
    expect((await put({ default_intelligence_mode: null }, key)).status).toBe(200);
    expect(await modeOf(await chat(valid, auth(key)))).toBe('full');
  });

  it('rejects other values with 400 naming the field, and needs settings:write', async () => {
    await expectError(await put({ default_intelligence_mode: 'turbo' }, master), 400, 'invalid_request_error', undefined, 'default_intelligence_mode');
    const org = await testApp.runtime.db.orgs.ensure(`settings-ro-${Math.random()}`);
    const readOnly = (await testApp.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] })).secret;
    await expectError(await put({ default_intelligence_mode: 'proxy' }, readOnly), 403, 'authorization_error', 'insufficient_scopes');
  });
});

describe('free_models_only on the single-model endpoints', () => {
  it('refuses a model neither free nor open-weight with 403 forbidden, as chat routing does', async () => {
    const org = await testApp.runtime.db.orgs.create({ name: `free-only-${Math.random()}`, freeModelsOnly: true });
    const key = (await testApp.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat', 'inference:embeddings'] })).secret;
    const embedded = await testApp.app.request('/v1/embeddings', { method: 'POST', headers: auth(key), body: JSON.stringify({ model: 'mock/mock-embed', input: 'hi' }) });
    await expectError(embedded, 403, 'authorization_error', 'forbidden');
    await expectError(await chat({ ...valid, model: 'mock/mock-speed' }, auth(key)), 403, 'authorization_error', 'forbidden');
  });
});

describe('X-Svc-Intelligence-Mode on every authenticated response', () => {
  it('reports the resolved mode on models, settings, embeddings and errors; a 401 knows no tenant', async () => {
    const org = await testApp.runtime.db.orgs.create({ name: `mode-everywhere-${Math.random()}`, defaultIntelligenceMode: 'cache' });
    const key = (await testApp.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat', 'inference:embeddings'] })).secret;
    const mode = (response: Response) => response.headers.get('x-svc-intelligence-mode');
    expect(mode(await testApp.app.request('/v1/models', { headers: auth(key) }))).toBe('cache');
    expect(mode(await testApp.app.request('/v1/models/svc%2Fauto', { headers: { ...auth(key), 'x-intelligence-mode': 'proxy' } }))).toBe('proxy');
    expect(mode(await testApp.app.request('/v1/settings', { headers: auth(key) }))).toBe('cache');
    const embedded = await testApp.app.request('/v1/embeddings', { method: 'POST', headers: auth(key), body: JSON.stringify({ model: 'mock/mock-embed', input: 'hi' }) });
    expect(embedded.status).toBe(200);
    expect(mode(embedded)).toBe('cache');
    const invalid = await chat({ ...valid, temperature: 9 }, { ...auth(key), 'x-intelligence-mode': 'full' });
    expect(invalid.status).toBe(400);
    expect(mode(invalid)).toBe('full');
    expect(mode(await testApp.app.request('/v1/models/nope%2Fnothing', { headers: auth(key) }))).toBe('cache');
    // The body's mode, once the route decided it, is the mode its error reports too.
    const failed = await chat({ ...valid, model: 'mock/no-such-model', svc: { intelligence_mode: 'proxy' } }, auth(key));
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(mode(failed)).toBe('proxy');
    // A header that is not a mode is itself the error: nothing is claimed.
    const bad = await testApp.app.request('/v1/embeddings', { method: 'POST', headers: { ...auth(key), 'x-intelligence-mode': 'turbo' }, body: JSON.stringify({ model: 'mock/mock-embed', input: 'hi' }) });
    await expectError(bad, 400, 'invalid_request_error', undefined, 'X-Intelligence-Mode');
    expect(mode(await testApp.app.request('/v1/models'))).toBeNull();
  });
});

describe('learn stage', () => {
  it('records one usage event and one decision per request, off the response path', async () => {
    const org = await testApp.runtime.db.orgs.ensure('ledger-test');
    const key = await testApp.runtime.authenticator.issue({ orgId: org.id, scopes: ['inference:chat'] });
    const response = await chat(valid, auth(key.secret));
    const requestId = response.headers.get('x-svc-request-id')!;
    const body = (await response.json()) as { usage: { prompt_tokens: number; completion_tokens: number }; svc_metadata: { cost_usd: number } };
    await testApp.runtime.learn.flush();
    const events = await testApp.runtime.db.usage.listByOrg(org.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      requestId,
      keyId: key.record.id,
      promptTokens: body.usage.prompt_tokens,
      completionTokens: body.usage.completion_tokens,
      status: 200,
      stream: false,
    });
    expect(events[0]!.costUsd).toBeCloseTo(body.svc_metadata.cost_usd, 10);
    expect(await testApp.runtime.db.decisions.get(requestId)).toMatchObject({ outcome: 'ok', requestedModel: 'svc/auto', source: 'Router' });
  });
});

describe('streaming', () => {
  it('sends SSE comment keep-alives while the upstream is quiet, never a bare data line', async () => {
    const slow: Provider = {
      id: 'mock',
      chat: () => Promise.reject(new Error('stream only')),
      async stream() {
        async function* events(): AsyncGenerator<StreamEvent> {
          yield { type: 'text-delta', choice: 0, text: 'slow' };
          await new Promise((resolve) => setTimeout(resolve, 200));
          yield { type: 'text-delta', choice: 0, text: ' answer' };
          yield { type: 'finish', choice: 0, finishReason: 'stop' };
        }
        return events();
      },
    };
    const gateway = new Gateway({ ...testApp.runtime, providers: { get: (id) => (id === 'mock' ? slow : undefined) } });
    const quiet = createInferenceApp({ ...testApp.runtime, gateway, maxBodyBytes: 64 * 1024, keepAliveMs: 40 });
    const response = await quiet.request('/v1/chat/completions', { method: 'POST', headers: auth(), body: JSON.stringify({ ...valid, model: 'mock/mock-value', stream: true }) });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const text = await response.text();
    expect(text).toContain(': keep-alive');
    expect(text).not.toMatch(/^data:\s*$/m);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});

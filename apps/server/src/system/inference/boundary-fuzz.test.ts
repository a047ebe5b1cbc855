import { runBoundaryFuzz } from '@svc/openapi/test';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './test-app.js';
import { masterKey } from '../../e2e/harness.js';

// The master key every suite on the shared PostgreSQL uses: a different one would supersede theirs.
const master = masterKey;
// PostgreSQL when the integration URL is set: it is what refuses NUL bytes and lone surrogates,
// so it is where a missing check turns into a 500.
const t = useTestApp(master, process.env.TEST_DATABASE_URL ? { DATABASE_URL: process.env.TEST_DATABASE_URL, SVC_DATA_DIR: '' } : {});

let tenant: string | undefined;

describe('inference: hostile input at the boundary', () => {
  it('has a tenant key', async () => {
    tenant = await t.keyWith(['inference:chat', 'inference:embeddings', 'inference:moderations', 'inference:audio', 'inference:images', 'memory:read']);
    expect(tenant).toBeTruthy();
  });

  runBoundaryFuzz({
    app: () => t.app,
    keys: () => [master, ...(tenant ? [tenant] : [])],
    maxBodiesPerOperation: 40,
    // The test app serves chat from the mock provider only: moderation and images have none.
    tolerateCodes: ['no_provider_configured'],
  });

  it('refuses a 5,000-deep tool schema and a lone surrogate with a 400, not a stack overflow', async () => {
    const deep = await t.app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${master}`, 'content-type': 'application/json' },
      body: `{"model":"svc/auto","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}]}`,
    });
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({ error: { code: 'nesting_too_deep' } });
    const lone = await t.app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${master}`, 'content-type': 'application/json' },
      body: '{"model":"svc/auto","messages":[{"role":"user","content":"\\ud800x"}]}',
    });
    expect(lone.status).toBe(400);
    expect(await lone.json()).toMatchObject({ error: { param: 'messages.0.content', code: 'invalid_string' } });
  });
});

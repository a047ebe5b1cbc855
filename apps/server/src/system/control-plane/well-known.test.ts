import { scopes } from '@svc/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReportTestContext, startReportRuntime } from './admin-routing-test-kit.js';

let ctx: ReportTestContext;
beforeAll(async () => {
  ctx = await startReportRuntime();
});
afterAll(async () => {
  await ctx?.runtime.close();
});

type Metadata = Record<string, unknown>;

async function document(app: ReportTestContext['control'], url: string): Promise<{ response: Response; body: Metadata }> {
  const response = await app.request(url);
  expect(response.status, url).toBe(200);
  return { response, body: (await response.json()) as Metadata };
}

/** RFC 8414 §2 / RFC 9728 §2: URLs without query or fragment. */
function expectPlainUrl(value: unknown, what: string): void {
  expect(typeof value, what).toBe('string');
  const url = new URL(value as string);
  expect([url.search, url.hash], what).toEqual(['', '']);
}

describe('/.well-known/oauth-authorization-server (RFC 8414)', () => {
  it('is public and cacheable JSON', async () => {
    const { response } = await document(ctx.control, 'http://cp.test:8081/.well-known/oauth-authorization-server');
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('vary')).toBe('Host');
  });

  it('describes bearer keys and the passkey login, field by field, and nothing it does not support', async () => {
    const { body } = await document(ctx.control, 'http://cp.test:8081/.well-known/oauth-authorization-server');
    // issuer (REQUIRED): the request's origin without a configured public URL; no query or fragment.
    expect(body.issuer).toBe('http://cp.test:8081');
    expectPlainUrl(body.issuer, 'issuer');
    // token_endpoint (REQUIRED unless only implicit): the dashboard login's completion, under the issuer.
    expect(body.token_endpoint).toBe('http://cp.test:8081/v1/auth/login/complete');
    // authorization_endpoint: omitted, no grant uses it; response_types_supported (REQUIRED): none, so no `code`.
    expect(body).not.toHaveProperty('authorization_endpoint');
    expect(body.response_types_supported).toEqual([]);
    // grant_types_supported: stated, because its default is ["authorization_code", "implicit"].
    expect(body.grant_types_supported).toEqual(['urn:svc:params:oauth:grant-type:passkey']);
    expect(body.grant_types_supported).not.toContain('authorization_code');
    // token_endpoint_auth_methods_supported: stated, because its default is client_secret_basic.
    expect(body.token_endpoint_auth_methods_supported).toEqual(['none']);
    // jwks_uri: omitted while the key set is empty (the gateway signs nothing).
    expect(body).not.toHaveProperty('jwks_uri');
    expect(body).not.toHaveProperty('code_challenge_methods_supported');
    expect(body).not.toHaveProperty('registration_endpoint');
    // scopes_supported (RECOMMENDED): what the gateway enforces.
    expect(body.scopes_supported).toEqual([...scopes]);
    expect(body.svc_login_begin_endpoint).toBe('http://cp.test:8081/v1/auth/login/begin');
    expect(body.svc_credentials_supported).toEqual(['api_key', 'passkey_session']);
  });
});

describe('/.well-known/oauth-protected-resource (RFC 9728)', () => {
  it('names the resource, its authorization server, header bearer tokens and the enforced scopes', async () => {
    const { response, body } = await document(ctx.control, 'http://cp.test:8081/.well-known/oauth-protected-resource');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    // resource (REQUIRED): the identifier the well-known URL was derived from.
    expect(body.resource).toBe('http://cp.test:8081');
    expectPlainUrl(body.resource, 'resource');
    expect(body.authorization_servers).toEqual(['http://cp.test:8081']);
    expect(body.bearer_methods_supported).toEqual(['header']);
    expect(body.scopes_supported).toEqual([...scopes]);
    expect(body.resource_name).toBe('svc gateway');
    expect(body).not.toHaveProperty('jwks_uri');
    // The authorization server it names publishes its metadata, with that issuer (RFC 9728 §3.3).
    for (const issuer of body.authorization_servers as string[]) {
      const server = await document(ctx.control, `${issuer}/.well-known/oauth-authorization-server`);
      expect(server.body.issuer).toBe(issuer);
    }
  });

  it('needs no key and ignores one', async () => {
    expect((await ctx.request('/.well-known/oauth-protected-resource', { key: 'sk-svc-not-a-key-0000000000' })).status).toBe(200);
    expect((await ctx.request('/.well-known/oauth-authorization-server', { key: null })).status).toBe(200);
  });
});

describe('with SVC_CONTROL_PUBLIC_URL', () => {
  it('names the configured URL whatever the Host, and serves the path-suffixed locations of RFC 8414 §3.1 / RFC 9728 §3.1', async () => {
    const app = ctx.withDeps({ publicUrl: 'https://gateway.example.com/cp' });
    const server = await document(app, 'http://10.0.0.7:8081/.well-known/oauth-authorization-server');
    expect(server.body).toMatchObject({ issuer: 'https://gateway.example.com/cp', token_endpoint: 'https://gateway.example.com/cp/v1/auth/login/complete' });
    expect(server.response.headers.get('vary')).toBeNull();
    const resource = await document(app, 'http://10.0.0.7:8081/.well-known/oauth-protected-resource/cp');
    expect(resource.body).toMatchObject({ resource: 'https://gateway.example.com/cp', authorization_servers: ['https://gateway.example.com/cp'] });
    expect((await document(app, 'http://10.0.0.7:8081/.well-known/oauth-authorization-server/cp')).body.issuer).toBe('https://gateway.example.com/cp');
    expect((await app.request('/.well-known/oauth-protected-resource/elsewhere')).status).toBe(404);
    expect((await ctx.control.request('/.well-known/oauth-protected-resource/cp')).status).toBe(404);
  });
});

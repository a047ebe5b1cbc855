import type { Scope } from '@svc/core';
import { RouteRegistry } from '@svc/http-kit';
import type { JsonSchema, OpenApiDocument } from '@svc/openapi';
import { runOpenApiConformance, schemaValidator } from '@svc/openapi/test';
import { type Runtime, createRuntime } from '../../runtime/runtime.js';
import { parseEnv } from '../../runtime/env.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlPlaneApp } from '@svc/control-plane';
import { maxClassifyChars } from '@svc/control-plane';

let runtime: Runtime;
let app: ReturnType<typeof createControlPlaneApp>;
let document: OpenApiDocument;

beforeAll(async () => {
  runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MASTER_KEY: 'sk-svc-openapi-control-master-L1urG9Jto7GUi1tX9hC3scEb', SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent' }));
  app = createControlPlaneApp({ ...runtime, maxBodyBytes: 64 * 1024 });
  document = (await (await app.request('/openapi.json')).json()) as OpenApiDocument;
});
afterAll(async () => {
  await runtime?.close();
});

async function keyWith(scopes: Scope[]): Promise<string> {
  const org = await runtime.db.orgs.ensure(`openapi-${scopes.join('-')}-${Math.random()}`);
  return (await runtime.authenticator.issue({ orgId: org.id, scopes })).secret;
}

describe('control-plane /openapi.json', () => {
  runOpenApiConformance({ app: () => app, keyWith, registry: () => RouteRegistry.of(app)! });

  const parameter = (path: string, name: string) => document.paths[path]?.get?.parameters?.find((p) => p.name === name);

  it('publishes the report query with its rules', () => {
    expect(parameter('/v1/admin/routing/decisions', 'days')).toMatchObject({ in: 'query', required: false, schema: { type: 'string', pattern: '^[+-]?\\d{1,15}$', default: '7' }, description: expect.stringContaining('1..365') });
    expect(parameter('/v1/admin/routing/drift', 'tenant_id')).toMatchObject({ schema: { type: 'string', maxLength: 64 } });
    expect(parameter('/v1/admin/routing/gate', 'limit')?.description).toContain('1..1000');
    expect(document.paths['/v1/admin/routing/decisions/{request_id}']?.get?.parameters).toEqual([
      expect.objectContaining({ name: 'request_id', in: 'path', required: true, schema: expect.objectContaining({ maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' }) }),
    ]);
  });

  it('publishes the admin and classify bodies with their limits', () => {
    const org = document.components.schemas.CreateOrganizationRequest!;
    expect(org.required).toEqual(['name']);
    expect(org.properties?.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 100 });
    const prompt = (document.components.schemas.ClassifyComplexityRequest!.properties!.prompt as JsonSchema).anyOf?.[0];
    expect(prompt).toMatchObject({ type: 'string', maxLength: maxClassifyChars });
    const valid = schemaValidator(document, '#/components/schemas/CreateApiKeyRequest');
    expect(valid({ org_id: 'o', scopes: ['inference:chat'], expires_at: '2030-01-01T00:00:00Z' })).toBe(true);
    expect(valid({ org_id: 'o', expires_at: 'tomorrow' })).toBe(false);
    expect(valid({ scopes: [] })).toBe(false);
    const shadow = schemaValidator(document, '#/components/schemas/PutShadowJudgingRequest');
    const settings = { enabled: true, sample_rate: 0.1, judge_model: 'openai/gpt-4.1', daily_budget_usd: 1 };
    expect(shadow(settings)).toBe(true);
    expect(shadow({ ...settings, cautious_start: false })).toBe(true);
    expect(shadow({ ...settings, cautious_start: 'false' })).toBe(false);
    expect(document.components.schemas.PutShadowJudgingRequest!.required).not.toContain('cautious_start');
  });

  it('describes /v1/auth/* with session auth (cookie or session token, CSRF header on changes) and the ceremonies as public', () => {
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: runtime.dashboardAuth.rp.cookieName });
    const session = document.paths['/v1/auth/session']?.get;
    expect(session?.security).toEqual([{ sessionCookie: [] }, { sessionToken: [] }]);
    expect(session?.parameters).toBeUndefined();
    for (const [path, method] of [
      ['/v1/auth/logout', 'post'],
      ['/v1/auth/passkeys/register/complete', 'post'],
      ['/v1/auth/passkeys/{id}', 'delete'],
    ] as const) {
      expect(document.paths[path]?.[method]?.parameters, path).toContainEqual(expect.objectContaining({ name: 'x-csrf-token', in: 'header' }));
    }
    expect(document.paths['/v1/auth/passkeys/{id}']?.delete?.description).toMatch(/AAL2/);
    for (const path of ['/v1/auth/login/begin', '/v1/auth/login/complete', '/v1/auth/enroll']) expect(document.paths[path]?.post?.security, path).toEqual([]);
  });

  it('leaves the dashboard pages out, and says so', () => {
    expect(RouteRegistry.of(app)!.outsideApi).toEqual([{ prefix: '/dashboard', reason: expect.stringMatching(/HTML pages/) }]);
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/dashboard'))).toEqual([]);
    expect(document.info.description).toMatch(/\/dashboard are not API operations/);
  });

  it('publishes the queries and parameters the new operations validate', () => {
    expect(parameter('/v1/observability/metrics/summary', 'org_id')).toMatchObject({ in: 'query', required: false, schema: { type: 'string', format: 'uuid' } });
    expect(parameter('/v1/observability/benchmarks', 'days')?.description).toContain('default 30');
    expect(parameter('/v1/slo', 'org_id')).toMatchObject({ schema: { minLength: 1, maxLength: 64 } });
    expect(parameter('/v1/alerts/history', 'status')).toMatchObject({ schema: { enum: ['firing', 'resolved'] } });
    expect(document.paths['/v1/observability/flags/{key}']?.put?.parameters?.[0]).toMatchObject({ name: 'key', in: 'path', schema: { enum: expect.arrayContaining(['semantic_cache']) } });
    expect(document.paths['/.well-known/oauth-authorization-server/{path}']?.get?.security).toEqual([]);
    expect(document.components.schemas.SloRequest?.required).toEqual(['name', 'metric', 'threshold', 'target', 'window_days']);
  });

  it('describes the probes and classify as public and the rest with their scope or role', () => {
    const security = (path: string, method: 'get' | 'post') => document.paths[path]?.[method]?.security;
    expect(security('/v1/classify_complexity', 'post')).toEqual([]);
    expect(security('/health', 'get')).toEqual([]);
    expect(security('/v1/observability/breakers', 'get')).toEqual([{ bearerAuth: ['observability:read'] }]);
    expect(security('/v1/observability/hedging/config', 'post')).toEqual([{ bearerAuth: ['admin'] }]);
    expect(security('/v1/admin/orgs', 'get')).toEqual([{ bearerAuth: ['admin'] }]);
    expect(security('/v1/observability/flags', 'get')).toEqual([{ bearerAuth: ['observability:read'] }]);
    expect((document.paths['/v1/observability/flags/{key}']?.put?.security)).toEqual([{ bearerAuth: ['admin'] }]);
    expect((document.paths['/v1/output/config']?.put?.security)).toEqual([{ bearerAuth: ['settings:write'] }]);
    expect(security('/.well-known/oauth-protected-resource', 'get')).toEqual([]);
  });
});

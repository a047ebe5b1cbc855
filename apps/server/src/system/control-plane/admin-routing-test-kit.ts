import { randomUUID } from 'node:crypto';
import type { Organization } from '@svc/core';
import type { NewRoutingDecision } from '@svc/db';
import { ConfigError, parseEnv } from '../../runtime/env.js';
import { createRuntime, type Runtime } from '../../runtime/runtime.js';
import { expect, it } from 'vitest';
import { createControlPlaneApp } from '@svc/control-plane';
import type { ControlPlaneDeps } from '@svc/control-plane';

/** Shared set-up of the routing report tests: a runtime on in-memory stores and its control plane. */

export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const MASTER_KEY = 'sk-svc-routing-reports-test-master-AKP9ZJUefxhjZENtH7BXPNtT';

export interface ReportTestContext {
  runtime: Runtime;
  control: ReturnType<typeof createControlPlaneApp>;
  /** `path` with `key` (default: the master key; null: none) and `body` sent as JSON (a string as is). */
  request(path: string, init?: { method?: string; key?: string | null; body?: unknown }): Promise<Response>;
  /** A control plane over the same runtime with some dependencies replaced. */
  withDeps(overrides: Partial<ControlPlaneDeps>): ReturnType<typeof createControlPlaneApp>;
  org(name: string): Promise<Organization>;
}

export async function startReportRuntime(env: Record<string, string> = {}): Promise<ReportTestContext> {
  const runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MASTER_KEY: MASTER_KEY, SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'silent', ...env }));
  const withDeps = (overrides: Partial<ControlPlaneDeps>) => createControlPlaneApp({ ...runtime, maxBodyBytes: 64 * 1024, ...overrides });
  const control = withDeps({});
  return {
    runtime,
    control,
    withDeps,
    request: async (path, init = {}) => {
      const key = init.key === undefined ? MASTER_KEY : init.key;
      const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
      if (init.body === undefined) return control.request(path, { method: init.method ?? 'GET', headers });
      const body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      return control.request(path, { method: init.method ?? 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
    },
    org: (name) => runtime.db.orgs.ensure(`${name}-${randomUUID()}`),
  };
}

let sequence = 0;

/** A decision of `org` on `model` (served by its provider) `ago` ms before now; ok unless overridden. */
export function decisionOf(org: Organization, ago: number, overrides: Partial<NewRoutingDecision> = {}): NewRoutingDecision {
  sequence += 1;
  const model = overrides.model ?? 'mock/mock-value';
  return {
    requestId: `req_report_${sequence}_${randomUUID().slice(0, 8)}`,
    orgId: org.id,
    model,
    provider: model.split('/')[0]!,
    source: 'Router',
    outcome: 'ok',
    latencyMs: 100,
    createdAt: new Date(Date.now() - ago),
    ...overrides,
  };
}

export async function json<T>(response: Response, status = 200): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
}

/** 401 without a key, 403 with a key that lacks the admin role. */
export async function expectAdminOnly(ctx: ReportTestContext, path: string, method = 'GET'): Promise<void> {
  const org = await ctx.org('observer');
  const observer = await ctx.runtime.authenticator.issue({ orgId: org.id, scopes: ['observability:read', 'inference:chat'] });
  expect((await ctx.request(path, { method, key: null })).status, `${method} ${path} without a key`).toBe(401);
  const forbidden = await ctx.request(path, { method, key: observer.secret });
  expect(forbidden.status, `${method} ${path} without the admin role`).toBe(403);
  expect(await forbidden.json()).toMatchObject({ error: { type: 'authorization_error' } });
}

/** The report query rules of spec document 2: every violation is a 400 naming the parameter. */
export async function expectReportQueryRules(ctx: ReportTestContext, path: string): Promise<void> {
  const cases: [string, string][] = [
    [`tenant_id=${'a'.repeat(65)}`, 'tenant_id'],
    [`model=${'m'.repeat(51)}`, 'model'],
    ['days=abc', 'days'],
    ['days=1.5', 'days'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=ten', 'limit'],
  ];
  for (const [query, param] of cases) {
    const response = await ctx.request(`${path}?${query}`);
    expect(response.status, query).toBe(400);
    expect(await response.json(), query).toMatchObject({ error: { type: 'invalid_request_error', param } });
  }
  // Accepted at the limits, and days is clamped rather than refused.
  for (const query of [`tenant_id=${randomUUID()}`, `model=${'m'.repeat(50)}`, 'limit=1000', 'days=0', 'days=100000']) {
    expect((await ctx.request(`${path}?${query}`)).status, query).toBe(200);
  }
}

/** The tests every admin report shares: admin only, and the report query rules. */
export function itIsAnAdminReport(context: () => ReportTestContext, path: string): void {
  it('is admin only', async () => {
    await expectAdminOnly(context(), path);
  });

  it('applies the report query rules', async () => {
    await expectReportQueryRules(context(), path);
  });
}

/** Each bad `[variable, value]` stops the start with a ConfigError naming the variable. */
export function expectConfigErrors(cases: readonly (readonly [string, string])[]): void {
  for (const [variable, value] of cases) {
    expect(() => parseEnv({ [variable]: value }), `${variable}=${value}`).toThrow(ConfigError);
    expect(() => parseEnv({ [variable]: value }), `${variable}=${value}`).toThrow(expect.objectContaining({ variable }));
  }
}

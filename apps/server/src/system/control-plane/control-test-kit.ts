import type { Scope } from '@svc/core';
import { expect } from 'vitest';
import type { ReportTestContext } from './admin-routing-test-kit.js';

/** Shared checks of the Bearer operations (SLO, alerts, output config, onboarding). */

/** A key of a fresh organisation holding only `scopes`, and that organisation. */
export async function keyWith(ctx: ReportTestContext, scopes: Scope[], name = 'caller') {
  const org = await ctx.org(name);
  const { secret } = await ctx.runtime.authenticator.issue({ orgId: org.id, scopes });
  return { org, key: secret };
}

/** 401 without a key and with an unknown one; 403 `insufficient_scopes` with a key lacking `scope`. */
export async function expectBearer(ctx: ReportTestContext, path: string, scope: Scope, init: { method?: string; body?: unknown } = {}): Promise<void> {
  const what = `${init.method ?? 'GET'} ${path}`;
  expect((await ctx.request(path, { ...init, key: null })).status, `${what} without a key`).toBe(401);
  const unknown = await ctx.request(path, { ...init, key: 'sk-svc-not-a-key-0000000000' });
  expect(unknown.status, `${what} with an unknown key`).toBe(401);
  expect(await unknown.json()).toMatchObject({ error: { type: 'authentication_error', code: 'invalid_api_key' } });
  const others = (['inference:chat', 'observability:read', 'settings:write'] as const).filter((s) => s !== scope);
  const { key } = await keyWith(ctx, others);
  const forbidden = await ctx.request(path, { ...init, key });
  expect(forbidden.status, `${what} without ${scope}`).toBe(403);
  expect(await forbidden.json()).toMatchObject({ error: { type: 'authorization_error', code: 'insufficient_scopes' } });
}

/** A 400 naming `param`, with the x-error-id header. */
export async function expectInvalid(response: Response, param: string | null, what = param ?? 'body'): Promise<void> {
  expect(response.status, `${what}: ${await response.clone().text()}`).toBe(400);
  expect(response.headers.get('x-error-id'), what).toBeTruthy();
  expect(await response.json(), what).toMatchObject({ error: { type: 'invalid_request_error', param } });
}

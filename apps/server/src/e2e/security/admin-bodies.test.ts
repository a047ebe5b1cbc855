import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from '../harness.js';

// Issue #32 item 3: an admin or settings body with a field the operation does not know is a 400
// naming it, where it used to pass silently (`rpm_limt: 5` made an unlimited key).

let gateway: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(async () => {
  await gateway?.stop();
});

const call = (method: string, path: string, body: unknown) =>
  fetch(`${gateway.controlUrl}${path}`, { method, headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function expectUnknownField(method: string, path: string, body: Record<string, unknown>, field: string): Promise<void> {
  const response = await call(method, path, { ...body, [field]: 5 });
  const answer = (await response.json()) as { error: { type: string; param: string; message: string } };
  expect(response.status, `${method} ${path} with '${field}'`).toBe(400);
  expect(answer.error).toMatchObject({ type: 'invalid_request_error', param: field });
  expect(answer.error.message).toContain(field);
}

describe('admin and settings bodies refuse fields they do not know', () => {
  it('POST /v1/admin/keys: a typo of a limit or an unsupported allowlist is a 400, and no key is made', async () => {
    const org = (await (await call('POST', '/v1/admin/orgs', { name: `bodies-${randomUUID()}` })).json()) as { id: string };
    const before = ((await (await fetch(`${gateway.controlUrl}/v1/admin/keys?org_id=${org.id}`, { headers: { authorization: `Bearer ${masterKey}` } })).json()) as { data: unknown[] }).data.length;
    await expectUnknownField('POST', '/v1/admin/keys', { org_id: org.id }, 'rpm_limt');
    await expectUnknownField('POST', '/v1/admin/keys', { org_id: org.id }, 'allowed_models');
    const after = ((await (await fetch(`${gateway.controlUrl}/v1/admin/keys?org_id=${org.id}`, { headers: { authorization: `Bearer ${masterKey}` } })).json()) as { data: unknown[] }).data.length;
    expect(after).toBe(before);
    const created = await call('POST', '/v1/admin/keys', { org_id: org.id, rpm_limit: 5 });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ rpm_limit: 5 });
  });

  it('every other admin and settings body, each accepting its documented fields alone', async () => {
    const created = await call('POST', '/v1/admin/orgs', { name: `bodies-${randomUUID()}` });
    const org = (await created.json()) as { id: string };
    const key = (await (await call('POST', '/v1/admin/keys', { org_id: org.id })).json()) as { id: string };
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['POST', '/v1/admin/orgs', { name: `bodies-${randomUUID()}` }],
      ['PATCH', `/v1/admin/orgs/${org.id}`, { rpm_limit: 10 }],
      ['PATCH', `/v1/admin/keys/${key.id}`, { name: 'renamed' }],
      ['PUT', `/v1/admin/orgs/${org.id}/provider-keys/openai`, { api_key: 'sk-byok-test-0123456789' }],
      ['PUT', `/v1/admin/orgs/${org.id}/tools/lookup`, { parameters: { type: 'object' } }],
      ['PUT', `/v1/admin/orgs/${org.id}/tool-policy`, { blocked_tools: ['rm'] }],
      ['POST', '/v1/admin/users', { email: `u-${randomUUID()}@example.com`, org_id: org.id }],
      ['PUT', '/v1/observability/degradation', { level: 'none', reason: 'drill' }],
      ['PUT', '/v1/observability/flags/memory', { enabled: true }],
      ['POST', '/v1/observability/hedging/config', { enabled_by_default: false }],
      ['POST', '/v1/onboarding/progress', { step: 'go_live', completed: true }],
      ['PUT', '/v1/output/config', { healing: true }],
      ['POST', '/v1/slo', { name: 'availability', metric: 'availability', threshold: 0.99, target: 0.99, window_days: 7 }],
    ];
    for (const [method, path, body] of cases) {
      await expectUnknownField(method, path, body, 'unknown_field');
      const accepted = await call(method, path, body);
      expect(accepted.status, `${method} ${path}: ${await accepted.clone().text()}`).toBeLessThan(300);
    }
    const nested = await call('PUT', `/v1/admin/orgs/${org.id}/tool-policy`, { blocked_argument_patterns: [{ tool: 'rm', pattern: '^/', note: 'x' }] });
    expect(nested.status).toBe(400);
    expect(await nested.json()).toMatchObject({ error: { param: 'blocked_argument_patterns.0.note' } });
  });
});

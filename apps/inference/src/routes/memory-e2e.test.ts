import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-app.js';

const test = useTestApp('sk-svc-memory-e2e-test-master');

async function org() {
  const record = await test.runtime.db.orgs.ensure(`memory-e2e-${Math.random()}`);
  const { secret } = await test.runtime.authenticator.issue({ orgId: record.id, scopes: ['memory:read', 'inference:chat'] });
  return secret;
}

const chat = (key: string, content: string, mode: string, svc: Record<string, unknown> = {}) =>
  test.app.request('/v1/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-intelligence-mode': mode },
    body: JSON.stringify({ model: 'auto', messages: [{ role: 'user', content }], svc }),
  });

const search = async (key: string, query: string) =>
  ((await (await test.post('/v1/memory/search', { query }, key)).json()) as { data: { text: string }[] }).data.map((m) => m.text);

describe('memory through the gateway', () => {
  it('stores in full mode, is found by search, absent for another org, absent in cache mode', async () => {
    const a = await org();
    const b = await org();
    expect((await chat(a, 'My favourite colour is teal, write to ada@example.com', 'full', { redact_pii: true })).status).toBe(200);
    expect((await chat(a, 'The office wifi password is swordfish', 'cache')).status).toBe(200);
    expect((await chat(a, 'The server room code is 4242', 'full', { enable_memory: false })).status).toBe(200);
    await test.runtime.memory.idle();
    const found = await search(a, 'favourite colour teal');
    expect(found).toContain('My favourite colour is teal, write to [EMAIL_1]');
    expect(await search(a, 'office wifi password swordfish')).not.toContain('The office wifi password is swordfish');
    expect(await search(a, 'server room code')).not.toContain('The server room code is 4242');
    expect(await search(b, 'favourite colour teal')).toEqual([]);
  });
});

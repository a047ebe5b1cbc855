import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-app.js';

// The real local sentence encoder (all-MiniLM-L6-v2), as a default start has it.
const test = useTestApp('sk-svc-memory-e2e-test-master-W98zDblerRkNVjLMWdaOFtws', { SVC_SENTENCE_ENCODER: 'minilm' });

async function org() {
  const record = await test.runtime.db.orgs.ensure(`memory-e2e-${Math.random()}`);
  const { secret } = await test.runtime.authenticator.issue({ orgId: record.id, scopes: ['memory:read', 'memory:write', 'inference:chat', 'settings:write'] });
  return secret;
}

interface Answer {
  status: number;
  headers: Headers;
  memory: { injected: number; tokens: number } | undefined;
  cacheHit: boolean;
}

async function chat(key: string, content: string, options: { user?: string; mode?: string; svc?: Record<string, unknown> } = {}): Promise<Answer> {
  const response = await test.app.request('/v1/chat/completions', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${key}`,
      'x-intelligence-mode': options.mode ?? 'full',
      ...(options.user ? { 'x-svc-user': options.user } : {}),
    },
    body: JSON.stringify({ model: 'auto', messages: [{ role: 'user', content }], ...(options.svc ? { svc: options.svc } : {}) }),
  });
  const body = (await response.json()) as { svc_metadata?: { memory?: { injected: number; tokens: number } } };
  await test.runtime.memory.idle();
  return { status: response.status, headers: response.headers, memory: body.svc_metadata?.memory, cacheHit: response.headers.get('x-svc-cache-hit') === 'true' };
}

const search = async (key: string, query: string, user?: string) =>
  ((await (await test.post('/v1/memory/search', { query, ...(user ? { user } : {}) }, key)).json()) as { data: { text: string }[] }).data.map((m) => m.text);

describe('memory through the gateway (full mode, the local encoder)', () => {
  it('serves the end user who said it and nobody else: no injection and no cache hit across end users', async () => {
    const key = await org();
    expect((await chat(key, 'Hi! I live in Lisbon and I work at Acme Robotics.', { user: 'ada' })).status).toBe(200);

    const ada = await chat(key, 'Which city do I live in?', { user: 'ada' });
    expect(ada.memory).toEqual({ injected: 1, tokens: expect.any(Number) });
    expect(ada.headers.get('x-svc-memory-injected')).toBe('1');

    const bob = await chat(key, 'Which city do I live in?', { user: 'bob' });
    expect(bob.memory).toEqual({ injected: 0, tokens: 0 });
    expect(bob.headers.get('x-svc-memory-injected')).toBe('0');
    expect(bob.cacheHit).toBe(false);

    // The same end user asking again is served from the cache built for them.
    const again = await chat(key, 'Which city do I live in?', { user: 'ada' });
    expect(again.cacheHit).toBe(true);

    // A request without an end user recalls only its key's user-less memory.
    expect((await chat(key, 'Which city do I live in?')).memory).toEqual({ injected: 0, tokens: 0 });
    // The body's `user` names the end user too.
    expect((await search(key, 'where do I live', 'ada'))).toEqual(['I live in Lisbon']);
  });

  it('injects nothing into an unrelated request, and stores no questions, requests or answers', async () => {
    const key = await org();
    await chat(key, 'My favourite colour is teal.', { user: 'ada' });
    for (const prompt of ['Explain the difference between TCP and UDP.', 'say exactly: auto ok', 'Write a haiku about autumn.']) {
      const answer = await chat(key, prompt, { user: 'ada' });
      expect(answer.memory, prompt).toEqual({ injected: 0, tokens: 0 });
    }
    const stored = await search(key, 'anything at all', 'ada');
    expect(stored.every((text) => text === 'My favourite colour is teal.')).toBe(true);
  });

  it('recalls across the organisation only once it opts in', async () => {
    const key = await org();
    await chat(key, 'I live in Lisbon.', { user: 'ada' });
    expect((await chat(key, 'Which city do I live in?', { user: 'bob' })).memory?.injected).toBe(0);
    const put = await test.app.request('/v1/settings', { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify({ memory_scope: 'organization' }) });
    expect(((await put.json()) as { memory_scope: string }).memory_scope).toBe('organization');
    expect((await chat(key, 'In which city do I live?', { user: 'bob' })).memory?.injected).toBe(1);
  });

  it('redacts PII before storing when the request asks, stores nothing with enable_memory false, nothing in cache mode', async () => {
    const key = await org();
    await chat(key, 'My email address is ada@example.com.', { user: 'ada', svc: { redact_pii: true } });
    await chat(key, 'My locker code is 4242.', { user: 'ada', svc: { enable_memory: false } });
    await chat(key, 'My wifi password is swordfish.', { user: 'ada', mode: 'cache' });
    const stored = await search(key, 'my email address', 'ada');
    expect(stored).toEqual(['My email address is [EMAIL_1].']);
    expect(await search(key, 'my locker code', 'ada')).not.toContain('My locker code is 4242.');
    expect(await search(key, 'my wifi password', 'ada')).not.toContain('My wifi password is swordfish.');
  });
});

import type { Scope } from '@svc/core';
import { endUserSubject, keySubject } from '@svc/memory';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-app.js';

const test = useTestApp('sk-svc-memory-route-test-master-rovEEqJwgdcn1bCrRTIjG7TK');

interface MemoryWire {
  id: string;
  object: string;
  text: string;
  slot: string | null;
  conversation_id: string | null;
  entities: { type: string; value: string }[];
  score?: number;
  created_at: number;
  updated_at: number;
}
interface MemoryList {
  object: string;
  data: MemoryWire[];
  has_more?: boolean;
}

async function org(scopes: Scope[] = ['memory:read', 'memory:write']) {
  const record = await test.runtime.db.orgs.ensure(`memory-${Math.random()}`);
  const { secret, record: key } = await test.runtime.authenticator.issue({ orgId: record.id, scopes });
  return { id: record.id, key: secret, keyId: key.id };
}

const call = (method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) =>
  test.app.request(path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;

describe('/v1/memory', () => {
  it('searches only the caller’s scope: the end user named, else the key’s user-less memory', async () => {
    const a = await org();
    const b = await org();
    test.runtime.memory.remember({ orgId: a.id, subject: endUserSubject(a.id, 'ada'), conversationId: 'conv-1' }, 'I live in Lisbon and my quarterly planning meeting is on 2026-03-14.');
    test.runtime.memory.remember({ orgId: a.id, subject: keySubject(a.keyId) }, 'Our staging database runs PostgreSQL 16.');
    await test.runtime.memory.idle();

    const forAda = await json<MemoryList>(call('POST', '/v1/memory/search', a.key, { query: 'my quarterly planning meeting', user: 'ada' }));
    expect(forAda.object).toBe('list');
    expect(forAda.data[0]).toMatchObject({ object: 'memory', conversation_id: 'conv-1', text: expect.stringContaining('quarterly planning') });
    expect(forAda.data[0]!.entities).toContainEqual({ type: 'date', value: '2026-03-14' });
    expect(forAda.data[0]!.score).toBeGreaterThan(0);
    // The header names the end user too, and wins over the body.
    const viaHeader = await json<MemoryList>(call('POST', '/v1/memory/search', a.key, { query: 'my quarterly planning meeting', user: 'bob' }, { 'x-svc-user': 'ada' }));
    expect(viaHeader.data.map((m) => m.id)).toEqual(forAda.data.map((m) => m.id));
    expect((await json<MemoryList>(call('POST', '/v1/memory/search', a.key, { query: 'my quarterly planning meeting', user: 'bob' }))).data).toEqual([]);
    // No end user: the key's own user-less memory, never an end user's.
    const userless = await json<MemoryList>(call('POST', '/v1/memory/search', a.key, { query: 'our staging database' }));
    expect(userless.data.map((m) => m.text)).toEqual(['Our staging database runs PostgreSQL 16.']);
    expect((await json<MemoryList>(call('POST', '/v1/memory/search', a.key, { query: 'my quarterly planning meeting' }))).data).toEqual([]);
    // Another organisation sees nothing, whatever it names.
    expect((await json<MemoryList>(call('POST', '/v1/memory/search', b.key, { query: 'my quarterly planning meeting', user: 'ada' }))).data).toEqual([]);
  });

  it('lists an end user’s facts page by page, deletes one, and forgets the end user', async () => {
    const a = await org();
    const ada = { orgId: a.id, subject: endUserSubject(a.id, 'ada') };
    test.runtime.memory.remember(ada, 'I live in Lisbon. I have two cats. My favourite colour is teal.');
    test.runtime.memory.remember({ orgId: a.id, subject: endUserSubject(a.id, 'bob') }, 'I live in Oslo.');
    await test.runtime.memory.idle();

    const first = await json<MemoryList>(call('GET', '/v1/memory?user=ada&limit=2', a.key));
    expect(first.data).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const second = await json<MemoryList>(call('GET', `/v1/memory?user=ada&limit=2&after=${first.data[1]!.id}`, a.key));
    expect(second.has_more).toBe(false);
    const all = [...first.data, ...second.data].map((m) => m.text).sort();
    expect(all).toEqual(['I have two cats.', 'I live in Lisbon.', 'My favourite colour is teal.']);

    const cats = [...first.data, ...second.data].find((m) => m.text === 'I have two cats.')!;
    expect(await json(call('DELETE', `/v1/memory/${cats.id}`, a.key))).toEqual({ id: cats.id, object: 'memory.deleted', deleted: true });
    expect((await call('DELETE', `/v1/memory/${cats.id}`, a.key)).status).toBe(404);

    expect(await json(call('DELETE', '/v1/memory?user=ada', a.key))).toEqual({ object: 'memory.forgotten', user: 'ada', deleted: 2 });
    expect((await json<MemoryList>(call('GET', '/v1/memory?user=ada', a.key))).data).toEqual([]);
    expect((await json<MemoryList>(call('GET', '/v1/memory?user=bob', a.key))).data.map((m) => m.text)).toEqual(['I live in Oslo.']);
  });

  it('answers 400 for bad input, 403 without the scope a route needs', async () => {
    const a = await org();
    const missing = await call('POST', '/v1/memory/search', a.key, {});
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
    expect((await call('POST', '/v1/memory/search', a.key, { query: '  ' })).status).toBe(400);
    expect((await call('DELETE', '/v1/memory', a.key)).status).toBe(400);
    expect((await call('GET', '/v1/memory?limit=0', a.key)).status).toBe(400);
    expect((await call('GET', '/v1/memory?after=nope', a.key)).status).toBe(400);
    const reader = await org(['memory:read']);
    expect((await call('DELETE', '/v1/memory?user=ada', reader.key)).status).toBe(403);
    const chatOnly = await org(['inference:chat']);
    expect((await call('POST', '/v1/memory/search', chatOnly.key, { query: 'anything' })).status).toBe(403);
    expect((await call('GET', '/v1/memory', chatOnly.key)).status).toBe(403);
  });
});

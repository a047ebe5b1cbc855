import type { Scope } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-app.js';

const test = useTestApp('sk-svc-memory-route-test-master');
const search = (body: unknown, key?: string) => test.post('/v1/memory/search', body, key);

interface MemoryList {
  object: string;
  data: { id: string; text: string; role: string; conversation_id: string | null; entities: { type: string; value: string }[]; score: number; created_at: number }[];
}

async function org(scopes: Scope[] = ['memory:read']) {
  const record = await test.runtime.db.orgs.ensure(`memory-${Math.random()}`);
  const { secret } = await test.runtime.authenticator.issue({ orgId: record.id, scopes });
  return { id: record.id, key: secret };
}

describe('POST /v1/memory/search', () => {
  it('finds what an organisation remembered, and nothing for another organisation', async () => {
    const a = await org();
    const b = await org();
    test.runtime.memory.remember(a.id, 'conv-1', 'Our quarterly planning meeting with Grace Hopper is in Lisbon on 2026-03-14.', 'user');
    test.runtime.memory.remember(a.id, undefined, 'The staging database runs PostgreSQL 16.', 'assistant');
    await test.runtime.memory.idle();

    const found = await search({ query: 'when is the quarterly planning meeting?' }, a.key);
    expect(found.status).toBe(200);
    const body = (await found.json()) as MemoryList;
    expect(body.object).toBe('list');
    expect(body.data[0]).toMatchObject({ role: 'user', conversation_id: 'conv-1', text: expect.stringContaining('quarterly planning') });
    expect(body.data[0]!.entities).toEqual(
      expect.arrayContaining([
        { type: 'person', value: 'Grace Hopper' },
        { type: 'place', value: 'Lisbon' },
        { type: 'date', value: '2026-03-14' },
      ]),
    );
    expect(body.data[0]!.score).toBeGreaterThan(0);
    expect(body.data[0]!.created_at).toBeGreaterThan(1_700_000_000);

    const scoped = (await (await search({ query: 'staging database', conversation_id: 'conv-1' }, a.key)).json()) as MemoryList;
    expect(scoped.data.every((memory) => memory.conversation_id === 'conv-1')).toBe(true);

    const other = await search({ query: 'when is the quarterly planning meeting?' }, b.key);
    expect(other.status).toBe(200);
    expect(((await other.json()) as MemoryList).data).toEqual([]);
  });

  it('answers 400 without a query and 403 without memory:read', async () => {
    const a = await org();
    const missing = await search({}, a.key);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
    expect((await search({ query: '  ' }, a.key)).status).toBe(400);
    const noScope = await org(['inference:chat']);
    expect((await search({ query: 'anything' }, noScope.key)).status).toBe(403);
  });
});

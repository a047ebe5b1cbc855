import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { StoredResponseRecord } from '../../repositories/stored-responses.js';
import { createTestOrg, type GetDb } from '../fixtures.js';

const DAY_MS = 86_400_000;

function storedResponse(orgId: string, overrides: Partial<StoredResponseRecord> = {}): StoredResponseRecord {
  const id = `resp_${randomUUID().replaceAll('-', '')}`;
  return {
    id,
    orgId,
    model: 'openai/gpt-4o-mini',
    status: 'completed',
    response: { id, object: 'response', status: 'completed', output: [{ type: 'message', content: [{ type: 'output_text', text: 'Hi' }] }] },
    inputItems: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello' }] }],
    messages: [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi', toolCalls: [{ id: 'call_1', name: 'f', arguments: '{}' }] },
    ],
    createdAt: new Date(Date.now() - 1000),
    expiresAt: new Date(Date.now() + DAY_MS),
    ...overrides,
  };
}

export function storedResponseConformance(getDb: GetDb): void {
  it('keeps a response with its input items and conversation, for its organisation only', async () => {
    const db = getDb();
    const owner = await createTestOrg(db);
    const other = await createTestOrg(db);
    const kept = storedResponse(owner.id);
    await db.responses.save(kept);
    expect(await db.responses.get(owner.id, kept.id)).toEqual(kept);
    expect(await db.responses.get(other.id, kept.id)).toBeUndefined();
    expect(await db.responses.get(owner.id, 'resp_unknown')).toBeUndefined();
    expect(await db.responses.get('not-a-uuid', kept.id)).toBeUndefined();
    // The same id saved again (a retried write) changes nothing.
    await db.responses.save({ ...kept, orgId: other.id, status: 'incomplete' });
    expect(await db.responses.get(owner.id, kept.id)).toEqual(kept);
  });

  it('deletes a response once, never another organisation’s', async () => {
    const db = getDb();
    const owner = await createTestOrg(db);
    const other = await createTestOrg(db);
    const kept = storedResponse(owner.id);
    await db.responses.save(kept);
    expect(await db.responses.delete(other.id, kept.id)).toBe(false);
    expect(await db.responses.get(owner.id, kept.id)).toBeDefined();
    expect(await db.responses.delete(owner.id, kept.id)).toBe(true);
    expect(await db.responses.delete(owner.id, kept.id)).toBe(false);
    expect(await db.responses.get(owner.id, kept.id)).toBeUndefined();
  });

  it('never serves an expired response, and sweeps it', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const now = new Date();
    const expired = storedResponse(org.id, { expiresAt: new Date(now.getTime() - 1) });
    const live = storedResponse(org.id);
    await db.responses.save(expired);
    await db.responses.save(live);
    expect(await db.responses.get(org.id, expired.id, now)).toBeUndefined();
    expect(await db.responses.delete(org.id, expired.id, now)).toBe(false);
    // Seen from before its expiry the row is still there: only the sweep removes it.
    expect(await db.responses.get(org.id, expired.id, new Date(now.getTime() - DAY_MS))).toBeDefined();
    expect(await db.responses.deleteExpired(now)).toBeGreaterThanOrEqual(1);
    expect(await db.responses.get(org.id, expired.id, new Date(now.getTime() - DAY_MS))).toBeUndefined();
    expect(await db.responses.get(org.id, live.id, now)).toEqual(live);
  });
}

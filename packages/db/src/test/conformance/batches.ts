import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { NewBatch } from '../../repositories/batches.js';
import { createTestOrg, type GetDb } from '../fixtures.js';

const DAY_MS = 86_400_000;

function newBatch(orgId: string, overrides: Partial<NewBatch> = {}): NewBatch {
  return {
    id: `batch_${randomUUID().replaceAll('-', '')}`,
    orgId,
    keyId: 'key_test',
    endpoint: '/v1/chat/completions',
    inputFileId: 'file-input',
    completionWindow: '24h',
    status: 'validating',
    metadata: { job: 'nightly' },
    errors: null,
    total: 3,
    createdAt: new Date(Date.now() - 1000),
    expiresAt: new Date(Date.now() + DAY_MS),
    ...overrides,
  };
}

const lines = ['a', 'b', 'c'].map((customId) => ({ customId, body: { model: 'm', messages: [{ role: 'user', content: customId }] } }));

const answer = (line: number, statusCode: number) => ({ line, statusCode, result: { id: `batch_req_${line}`, custom_id: 'x', response: { status_code: statusCode } } });

export function batchConformance(getDb: GetDb): void {
  it('keeps a batch of more lines than one insert statement takes whole and in order, and a batch whose lines cannot all be stored not at all', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const many = Array.from({ length: 2500 }, (_, index) => ({ customId: `req-${index}`, body: { model: 'm', messages: [{ role: 'user', content: `line ${index} \u00e9 "quoted"` }] } }));
    const batch = await db.batches.create(newBatch(org.id, { total: many.length }), many);
    const stored = [];
    for (let page = await db.batches.pendingLines(batch.id, 1000); page.length > 0; page = await db.batches.pendingLines(batch.id, 1000, page.at(-1)!.line)) stored.push(...page);
    expect(stored).toEqual(many.map((line, index) => ({ line: index, ...line })));
    // A NUL character cannot be stored in jsonb: the third chunk fails, and the batch and its first chunks go with it.
    const broken = many.map((line, index) => (index === 2200 ? { ...line, body: { content: 'nul \u0000' } } : line));
    const refused = newBatch(org.id, { total: broken.length });
    await expect(db.batches.create(refused, broken)).rejects.toThrow();
    expect(await db.batches.get(org.id, refused.id)).toBeUndefined();
    expect(await db.batches.pendingLines(refused.id, 10)).toEqual([]);
  });

  it('keeps a batch and its lines, for its organisation only, listed newest first', async () => {
    const db = getDb();
    const owner = await createTestOrg(db);
    const other = await createTestOrg(db);
    const older = await db.batches.create(newBatch(owner.id, { createdAt: new Date(Date.now() - 5000) }), lines);
    const newer = await db.batches.create(newBatch(owner.id), []);
    expect(older).toMatchObject({ status: 'validating', completed: 0, failed: 0, total: 3, times: {}, outputFileId: null, metadata: { job: 'nightly' } });
    expect(await db.batches.get(owner.id, older.id)).toEqual(older);
    expect(await db.batches.get(other.id, older.id)).toBeUndefined();
    expect(await db.batches.pendingLines(older.id, 10)).toEqual(lines.map((line, index) => ({ line: index, ...line })));
    const messages = await db.batches.create(newBatch(owner.id, { endpoint: '/v1/messages', createdAt: new Date(Date.now() - 3000) }), []);
    const endpoints = ['/v1/chat/completions', '/v1/embeddings'];
    const first = await db.batches.list(owner.id, { limit: 1, endpoints });
    expect(first).toEqual({ data: [newer], hasMore: true });
    expect(await db.batches.list(owner.id, { limit: 1, after: newer.id, endpoints })).toEqual({ data: [older], hasMore: false });
    expect(await db.batches.list(owner.id, { limit: 10, endpoints: ['/v1/messages'] })).toEqual({ data: [messages], hasMore: false });
    expect((await db.batches.list(other.id, { limit: 10, endpoints })).data).toEqual([]);
  });

  it('deletes a batch and its lines in the given statuses only, never another organisation’s', async () => {
    const db = getDb();
    const owner = await createTestOrg(db);
    const other = await createTestOrg(db);
    const batch = await db.batches.create(newBatch(owner.id), lines);
    expect(await db.batches.delete(owner.id, batch.id, ['completed'])).toBe(false);
    expect(await db.batches.delete(other.id, batch.id, ['validating'])).toBe(false);
    expect(await db.batches.delete(owner.id, batch.id, ['validating'])).toBe(true);
    expect(await db.batches.get(owner.id, batch.id)).toBeUndefined();
    expect(await db.batches.pendingLines(batch.id, 10)).toEqual([]);
  });

  it('sweeps ended batches whose window closed before the cutoff, with their lines, and nothing else', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const longAgo = new Date(Date.now() - 40 * DAY_MS);
    const create = async (status: NewBatch['status'], expiresAt: Date) => {
      const batch = await db.batches.create(newBatch(org.id, { expiresAt, createdAt: new Date(expiresAt.getTime() - DAY_MS) }), lines);
      return status === 'validating' ? batch : (await db.batches.transition(batch.id, ['validating'], { status }))!;
    };
    const swept = await Promise.all((['completed', 'failed', 'expired', 'cancelled'] as const).map((status) => create(status, longAgo)));
    const running = await create('in_progress', longAgo);
    const recent = await create('completed', new Date());
    expect(await db.batches.deleteEnded(new Date(Date.now() - 30 * DAY_MS))).toBe(swept.length);
    for (const batch of swept) expect(await db.batches.get(org.id, batch.id)).toBeUndefined();
    expect(await db.batches.pendingLines(swept[0]!.id, 10)).toEqual([]);
    expect(await db.batches.get(org.id, running.id)).toMatchObject({ status: 'in_progress' });
    expect(await db.batches.get(org.id, recent.id)).toMatchObject({ status: 'completed' });
  });

  it('answers each line once and counts it', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const batch = await db.batches.create(newBatch(org.id), lines);
    expect(await db.batches.answerLine(batch.id, answer(0, 200))).toBe(true);
    expect(await db.batches.answerLine(batch.id, answer(0, 200))).toBe(false);
    expect(await db.batches.answerLine(batch.id, answer(2, 400))).toBe(true);
    expect(await db.batches.get(org.id, batch.id)).toMatchObject({ completed: 1, failed: 1 });
    expect((await db.batches.pendingLines(batch.id, 10)).map((line) => line.line)).toEqual([1]);
    expect(await db.batches.answeredLines(batch.id)).toEqual([
      { line: 0, customId: 'a', statusCode: 200, result: answer(0, 200).result },
      { line: 2, customId: 'c', statusCode: 400, result: answer(2, 400).result },
    ]);
    // By pages after a line (keyset): the writer of the output files reads them so.
    expect((await db.batches.answeredLines(batch.id, { after: -1, limit: 1 })).map((line) => line.line)).toEqual([0]);
    expect((await db.batches.answeredLines(batch.id, { after: 0, limit: 1 })).map((line) => line.line)).toEqual([2]);
    expect(await db.batches.answeredLines(batch.id, { after: 2, limit: 1 })).toEqual([]);
    // Every line by pages, the unanswered ones without a result: an ended batch's results.
    expect(await db.batches.linesPage(batch.id, { after: -1, limit: 2 })).toEqual([
      { line: 0, customId: 'a', statusCode: 200, result: answer(0, 200).result },
      { line: 1, customId: 'b' },
    ]);
    expect((await db.batches.linesPage(batch.id, { after: 1, limit: 2 })).map((line) => line.line)).toEqual([2]);
  });

  it('changes status only from the statuses given, merging times', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const batch = await db.batches.create(newBatch(org.id, { times: { a_at: 1 } }), []);
    expect(await db.batches.transition(batch.id, ['in_progress'], { status: 'completed' })).toBeUndefined();
    const moved = await db.batches.transition(batch.id, ['validating'], { status: 'in_progress', times: { in_progress_at: 5 } });
    expect(moved).toMatchObject({ status: 'in_progress', times: { a_at: 1, in_progress_at: 5 } });
    const done = await db.batches.transition(batch.id, ['in_progress'], { status: 'completed', outputFileId: 'file-out', errors: [{ code: 'x' }] });
    expect(done).toMatchObject({ status: 'completed', outputFileId: 'file-out', errorFileId: null, errors: [{ code: 'x' }] });
  });

  it('leases a workable batch to one worker at a time until the lease ends or is released', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const now = new Date();
    const batch = await db.batches.create(newBatch(org.id, { createdAt: new Date(0) }), []);
    await db.batches.create(newBatch(org.id, { createdAt: new Date(1), status: 'completed' }), []);
    const until = new Date(now.getTime() + 60_000);
    expect((await db.batches.claim('one', until, now))?.id).toBe(batch.id);
    // Other workers (another test's batches aside) do not get it while the lease holds.
    expect((await db.batches.claim('two', until, now))?.id).not.toBe(batch.id);
    expect(await db.batches.renew(batch.id, 'two', until)).toBeUndefined();
    expect((await db.batches.renew(batch.id, 'one', until))?.id).toBe(batch.id);
    // Past the lease another worker takes it over; the first one has lost it.
    const later = new Date(until.getTime() + 1);
    expect((await db.batches.claim('two', new Date(later.getTime() + 60_000), later))?.id).toBe(batch.id);
    expect(await db.batches.renew(batch.id, 'one', until)).toBeUndefined();
    await db.batches.release(batch.id, 'one');
    expect((await db.batches.claim('three', until, later))?.id).not.toBe(batch.id);
    await db.batches.release(batch.id, 'two');
    expect((await db.batches.claim('three', until, now))?.id).toBe(batch.id);
  });

  it('keeps lines in a native part off the gateway path until they are given back, and waits for a poll time', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const batch = await db.batches.create(newBatch(org.id, { createdAt: new Date(Date.now() - 60 * DAY_MS) }), lines);
    await db.batches.assignNative(batch.id, [0, 2], 'native_1');
    expect((await db.batches.pendingLines(batch.id, 10)).map((line) => line.line)).toEqual([1]);
    expect((await db.batches.nativeLines(batch.id, 'native_1', { after: -1, limit: 10 })).map((line) => line.customId)).toEqual(['a', 'c']);
    expect((await db.batches.nativeLines(batch.id, 'native_1', { after: 0, limit: 10 })).map((line) => line.line)).toEqual([2]);
    await db.batches.answerLine(batch.id, answer(0, 200));
    expect((await db.batches.nativeAnswered(batch.id, 'native_1', { after: -1, limit: 10 })).map((line) => line.line)).toEqual([0]);
    await db.batches.assignNative(batch.id, [0, 2], null);
    // An answered line stays in its part: what the part's results recorded.
    expect((await db.batches.nativeAnswered(batch.id, 'native_1', { after: -1, limit: 10 })).map((line) => line.line)).toEqual([0]);
    expect((await db.batches.pendingLines(batch.id, 10)).map((line) => line.line)).toEqual([1, 2]);
    expect(await db.batches.countAnswered(batch.id, 200)).toBe(1);
    const owner = `worker_${randomUUID()}`;
    /** Every batch a worker can claim at `now` (each claimed in turn): other tests' batches too. */
    const claimAll = async (now: Date) => {
      const ids: string[] = [];
      for (let next = await db.batches.claim(owner, new Date(now.getTime() + 60_000), now); next; next = await db.batches.claim(owner, new Date(now.getTime() + 60_000), now)) ids.push(next.id);
      return ids;
    };
    expect(await claimAll(new Date())).toContain(batch.id);
    const part = { id: 'native_1', provider: 'openai', byok: false, upstreamId: 'batch_up', keyIndex: 0, state: 'in_progress' as const, lines: 2, reservation: null };
    expect((await db.batches.setNatives(batch.id, owner, [part]))?.natives).toEqual([part]);
    expect(await db.batches.setNatives(batch.id, 'someone_else', [])).toBeUndefined();
    // A provider batch a part holds as its own is taken; one only taken up as a candidate (unconfirmed) is not.
    const upstreamId = `msgbatch_${randomUUID()}`;
    const candidate = { ...part, id: 'native_2', provider: 'anthropic', upstreamId, unconfirmed: true };
    await db.batches.setNatives(batch.id, owner, [part, candidate]);
    expect(await db.batches.nativeTaken('openai', 'batch_up')).toBe(true);
    expect(await db.batches.nativeTaken('anthropic', upstreamId)).toBe(false);
    expect(await db.batches.nativeTaken('anthropic', 'batch_up')).toBe(false);
    await db.batches.setNatives(batch.id, owner, [part, { ...candidate, unconfirmed: false }]);
    expect(await db.batches.nativeTaken('anthropic', upstreamId)).toBe(true);
    expect(batch.hold).toBeNull();
    const hold = { reservation: { tokens: 10, micros: 20 }, lines: 3, stepLines: 1, released: 1, ended: false };
    expect((await db.batches.setHold(batch.id, owner, hold))?.hold).toEqual(hold);
    expect(await db.batches.setHold(batch.id, 'someone_else', { ...hold, ended: true })).toBeUndefined();
    expect((await db.batches.get(org.id, batch.id))?.hold).toEqual(hold);
    await db.batches.release(batch.id, owner, new Date(Date.now() + 200_000));
    expect(await claimAll(new Date(Date.now() + 100_000))).not.toContain(batch.id);
    expect(await claimAll(new Date(Date.now() + 300_000))).toContain(batch.id);
  });

  it('lists ended batches whose hold was not given back, and writes an ended batch’s hold without a lease', async () => {
    const db = getDb();
    const org = await createTestOrg(db);
    const hold = { reservation: { tokens: 10, micros: 20 }, lines: 3, stepLines: 1, released: 0, ended: false };
    const leaked = await db.batches.create(newBatch(org.id, { status: 'completed', hold }), lines);
    const running = await db.batches.create(newBatch(org.id, { status: 'in_progress', hold }), lines);
    const given = await db.batches.create(newBatch(org.id, { status: 'cancelled', hold: { ...hold, ended: true } }), lines);
    const ids = (await db.batches.heldAfterEnd(1000)).map((batch) => batch.id);
    expect(ids).toContain(leaked.id);
    expect(ids).not.toContain(running.id);
    expect(ids).not.toContain(given.id);
    expect(await db.batches.setEndedHold(running.id, { ...hold, ended: true })).toBeUndefined();
    expect((await db.batches.setEndedHold(leaked.id, { ...hold, ended: true }))?.hold?.ended).toBe(true);
    expect((await db.batches.heldAfterEnd(1000)).map((batch) => batch.id)).not.toContain(leaked.id);
  });
}

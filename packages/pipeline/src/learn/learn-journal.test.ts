import { createMemoryKv } from '@svc/kv';
import { describe, expect, it, vi } from 'vitest';
import { DRAIN_LOCK_TTL_MS, KvLearnJournal, SHARED_JOURNAL_PREFIX } from './learn-journal.js';
import type { DecisionRecord, UsageEvent } from './learn-queue.js';

const event = (requestId: string): UsageEvent => ({
  requestId,
  orgId: '00000000-0000-4000-8000-000000000001',
  keyId: 'key_1',
  model: 'openai/gpt-4o-mini',
  provider: 'openai',
  promptTokens: 10,
  completionTokens: 5,
  cachedTokens: 0,
  costUsd: 0.00001,
  baselineCostUsd: 0.0001,
  cacheHit: false,
  latencyMs: 12,
  status: 200,
  stream: false,
  createdAt: new Date('2026-11-21T10:00:00Z'),
});

function writer(options: { failFirst?: boolean } = {}) {
  const usage: UsageEvent[] = [];
  const decisions: DecisionRecord[] = [];
  let fail = options.failFirst === true;
  return {
    usage,
    decisions,
    writeUsage: async (rows: UsageEvent[]) => {
      if (fail) {
        fail = false;
        throw new Error('database down');
      }
      usage.push(...rows);
    },
    writeDecisions: async (rows: DecisionRecord[]) => void decisions.push(...rows),
  };
}

describe('KvLearnJournal', () => {
  it('shuts down when the kv is unavailable at that moment: the drain fails and is reported, the close does not', async () => {
    const kv = createMemoryKv();
    const errors: unknown[] = [];
    const journal = new KvLearnJournal({ kv, writer: writer(), flushIntervalMs: 60_000, onError: (error) => errors.push(error) });
    journal.recordUsage(event('req_1'));
    await journal.flush();
    kv.setIfAbsent = () => Promise.reject(new Error('Redis is unavailable (circuit open)'));
    await expect(journal.close()).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
  });

  it('journals events in the kv and drains them to the store, dates revived, streams emptied', async () => {
    const kv = createMemoryKv();
    const out = writer();
    const journal = new KvLearnJournal({ kv, writer: out, flushIntervalMs: 60_000 });
    journal.recordUsage(event('req_1'));
    journal.recordUsage(event('req_2'));
    await journal.flush();
    expect(out.usage.map((u) => u.requestId)).toEqual(['req_1', 'req_2']);
    expect(out.usage[0]!.createdAt).toEqual(new Date('2026-11-21T10:00:00Z'));
    expect(await kv.read('svc:learn:usage', '0', 10)).toEqual([]);
    expect(journal.stats()).toMatchObject({ queued: 0, processed: 2, failures: 0, lastErrorAt: null });
    await journal.close();
  });

  it('measures the shared backlog: entries every instance journaled, oldest by its stream id', async () => {
    const kv = createMemoryKv();
    const journal = new KvLearnJournal({ kv, writer: writer(), flushIntervalMs: 60_000 });
    const other = new KvLearnJournal({ kv, writer: writer(), flushIntervalMs: 60_000 });
    expect(await journal.backlog()).toEqual({ scope: 'shared', usage: 0, decisions: 0, oldestPendingAt: null });
    const before = Date.now();
    journal.recordUsage(event('req_1'));
    other.recordUsage(event('req_2'));
    await new Promise((resolve) => setImmediate(resolve));
    const backlog = await journal.backlog();
    expect(backlog).toMatchObject({ scope: 'shared', usage: 2, decisions: 0 });
    expect(backlog.oldestPendingAt).toBeGreaterThanOrEqual(before);
    expect(journal.lastBacklog()).toEqual(backlog);
    await journal.flush();
    expect(await other.backlog()).toMatchObject({ usage: 0, oldestPendingAt: null });
    await Promise.all([journal.close(), other.close()]);
  });

  it('survives its process: another instance drains what a dead one journaled', async () => {
    const kv = createMemoryKv();
    const dead = new KvLearnJournal({ kv, writer: writer(), flushIntervalMs: 60_000 });
    dead.recordUsage(event('req_a'));
    dead.recordUsage(event('req_b'));
    await new Promise((resolve) => setImmediate(resolve)); // the appends reached the kv; the process "dies" here
    const out = writer();
    const next = new KvLearnJournal({ kv, writer: out, flushIntervalMs: 60_000 });
    await next.flush();
    expect(out.usage.map((u) => u.requestId)).toEqual(['req_a', 'req_b']);
    await next.close();
  });

  it('keeps a batch the store refused and writes it on the next flush', async () => {
    const kv = createMemoryKv();
    const out = writer({ failFirst: true });
    const errors: unknown[] = [];
    const journal = new KvLearnJournal({ kv, writer: out, flushIntervalMs: 60_000, onError: (e) => errors.push(e) });
    journal.recordUsage(event('req_x'));
    await journal.flush();
    expect(out.usage).toEqual([]);
    expect(errors).toHaveLength(1);
    await journal.flush();
    expect(out.usage.map((u) => u.requestId)).toEqual(['req_x']);
    await journal.close();
  });

  it('lets one instance drain at a time, so two flushing instances write each event once', async () => {
    const kv = createMemoryKv();
    const out = writer();
    const a = new KvLearnJournal({ kv, writer: out, flushIntervalMs: 60_000 });
    const b = new KvLearnJournal({ kv, writer: out, flushIntervalMs: 60_000 });
    for (let i = 0; i < 50; i++) (i % 2 ? a : b).recordUsage(event(`req_${i}`));
    await Promise.all([a.flush(), b.flush()]);
    await a.flush();
    expect(out.usage).toHaveLength(50);
    expect(new Set(out.usage.map((u) => u.requestId)).size).toBe(50);
    await Promise.all([a.close(), b.close()]);
  });

  it('falls back to memory when the kv refuses an append, and still writes the event', async () => {
    const kv = createMemoryKv();
    const out = writer();
    const failing = new Proxy(kv, {
      get: (target, name) => (name === 'append' ? async () => Promise.reject(new Error('redis down')) : Reflect.get(target, name).bind(target)),
    });
    const journal = new KvLearnJournal({ kv: failing, writer: out, flushIntervalMs: 60_000 });
    journal.recordUsage(event('req_f'));
    await journal.flush();
    expect(out.usage.map((u) => u.requestId)).toEqual(['req_f']);
    await journal.close();
  });

  it('holds the drain lock for 10 s at most past its holder, renewing it batch by batch while it drains', async () => {
    let now = Date.parse('2026-11-27T00:00:00Z');
    const kv = createMemoryKv({ now: () => now });
    const lock = 'svc:learn:drain-lock';
    const ttls: number[] = [];
    const slow = writer();
    const journal = new KvLearnJournal({
      kv,
      batchSize: 1,
      flushIntervalMs: 60_000,
      writer: {
        ...slow,
        // Each batch takes 6 s of the clock: an unrenewed 10 s lock would expire during the drain.
        writeUsage: async (rows: UsageEvent[]) => {
          now += 6_000;
          ttls.push(await kv.ttl(lock));
          await slow.writeUsage(rows);
        },
      },
    });
    for (const id of ['req_a', 'req_b', 'req_c']) journal.recordUsage(event(id));
    await journal.flush();
    expect(slow.usage.map((u) => u.requestId)).toEqual(['req_a', 'req_b', 'req_c']);
    expect(ttls.every((ttl) => ttl > 0 && ttl <= DRAIN_LOCK_TTL_MS - 6_000)).toBe(true);
    // A holder that died mid-drain: the others drain again once its lock expires.
    await kv.set(lock, 'dead-instance', { ttlMs: DRAIN_LOCK_TTL_MS });
    journal.recordUsage(event('req_d'));
    await journal.flush();
    expect(slow.usage).toHaveLength(3);
    now += DRAIN_LOCK_TTL_MS + 1;
    await journal.flush();
    expect(slow.usage.map((u) => u.requestId)).toContain('req_d');
    await journal.close();
  });
});

describe('KvLearnJournal on a Redis database other deployments share', () => {
  const ours = '00000000-0000-4000-8000-0000000000aa';
  const theirs = '00000000-0000-4000-8000-0000000000bb';
  const of = (requestId: string, orgId: string): UsageEvent => ({ ...event(requestId), orgId });
  const owns = async (ids: readonly string[]) => new Set(ids.filter((id) => id === ours));
  /** What an earlier release appended (one journal for every deployment on the database). */
  const appendShared = (kv: ReturnType<typeof createMemoryKv>, row: UsageEvent) => kv.append(`${SHARED_JOURNAL_PREFIX}usage`, { v: JSON.stringify(row) });

  it('keeps each store journal apart: one deployment never drains another store into its own', async () => {
    const kv = createMemoryKv();
    const [outA, outB] = [writer(), writer()];
    const a = new KvLearnJournal({ kv, writer: outA, flushIntervalMs: 60_000, prefix: 'svc:store-a:learn:' });
    const b = new KvLearnJournal({ kv, writer: outB, flushIntervalMs: 60_000, prefix: 'svc:store-b:learn:' });
    a.recordUsage(event('req_a'));
    b.recordUsage(event('req_b'));
    await b.flush();
    await a.flush();
    expect(outA.usage.map((u) => u.requestId)).toEqual(['req_a']);
    expect(outB.usage.map((u) => u.requestId)).toEqual(['req_b']);
    await Promise.all([a.close(), b.close()]);
  });

  it('drains only its organisations from a shared stream, leaves the others, reads past them once', async () => {
    const kv = createMemoryKv();
    const out = writer();
    for (const [id, org] of [['r1', theirs], ['r2', ours], ['r3', theirs]] as const) await appendShared(kv, of(id, org));
    const asked: string[][] = [];
    const asking = async (ids: readonly string[]) => {
      asked.push([...ids]);
      return owns(ids);
    };
    const journal = new KvLearnJournal({ kv, writer: out, flushIntervalMs: 60_000, batchSize: 2, owns: asking });
    await journal.flush();
    expect(out.usage.map((u) => u.requestId)).toEqual(['r2']);
    expect((await kv.read(`${SHARED_JOURNAL_PREFIX}usage`, '0', 10)).map((e) => JSON.parse(e.fields.v!).requestId)).toEqual(['r1', 'r3']);
    await appendShared(kv, of('r4', ours));
    asked.length = 0;
    await journal.flush();
    expect(out.usage.map((u) => u.requestId)).toEqual(['r2', 'r4']);
    expect(asked).toEqual([[ours]]);
    await journal.close();
  });

  it("drains this store's rows an earlier release left in the shared journal, at start and at close", async () => {
    const kv = createMemoryKv();
    const out = writer();
    await appendShared(kv, of('left_by_crash', ours));
    await appendShared(kv, of('other_deployment', theirs));
    const journal = new KvLearnJournal({ kv, writer: out, flushIntervalMs: 60_000, prefix: 'svc:store-a:learn:', earlier: { owns, everyMs: 60_000 } });
    await vi.waitFor(() => expect(out.usage.map((u) => u.requestId)).toEqual(['left_by_crash']));
    await appendShared(kv, of('rolling_upgrade', ours));
    journal.recordUsage(of('new', ours));
    await journal.close();
    expect(out.usage.map((u) => u.requestId).sort()).toEqual(['left_by_crash', 'new', 'rolling_upgrade']);
    expect((await kv.read(`${SHARED_JOURNAL_PREFIX}usage`, '0', 10)).map((e) => JSON.parse(e.fields.v!).requestId)).toEqual(['other_deployment']);
  });
});

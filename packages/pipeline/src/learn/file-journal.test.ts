import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RowIntake, RowBatches } from '@svc/db';
import { FileLearnJournal } from './file-journal.js';
import type { DecisionRecord, UsageEvent } from './learn-queue.js';

const usage = (requestId: string): UsageEvent => ({
  requestId, orgId: 'o', keyId: 'k', model: 'm', provider: 'p', promptTokens: 1, completionTokens: 1, cachedTokens: 0,
  costUsd: 0.5, baselineCostUsd: 0, cacheHit: false, latencyMs: 1, status: 200, stream: false, createdAt: new Date('2026-12-01T10:00:00Z'),
});
const decision = (requestId: string): DecisionRecord => ({
  requestId, orgId: 'o', requestedModel: 'm', model: 'm', provider: 'p', tier: 'T2', lane: 'smart', source: 's', taskFamily: null,
  intelligenceMode: 'full', attempts: [], candidates: [], outcome: 'ok', details: {}, latencyMs: 1, createdAt: new Date(),
});

/** A ledger keyed by request id, as the store's is (a row written twice counts once), behind the store's intake. */
function ledger(fail = () => false) {
  const usageRows = new Map<string, { requestId: string; createdAt?: Date }>();
  const decisionRows = new Map<string, { requestId: string }>();
  const intake = new RowBatches({
    usage: {
      insertMany: async (rows) => {
        if (fail()) throw new Error('store down');
        for (const row of rows) usageRows.set(row.requestId, row);
        return rows.length;
      },
    },
    decisions: {
      insertMany: async (rows) => {
        for (const row of rows) decisionRows.set(row.requestId, row);
        return rows.length;
      },
    },
  });
  return { intake, usageRows, decisionRows };
}

/** The intake of a process about to be killed: what it is handed never reaches a store. */
const lost: RowIntake = { hand: () => {}, settle: () => new Promise(() => {}) };

const dirs: string[] = [];
const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-journal-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('FileLearnJournal', () => {
  it('hands what it recorded to the store, which has it all once flushed, and leaves no file behind', async () => {
    const dir = newDir();
    const { intake, usageRows, decisionRows } = ledger();
    const journal = new FileLearnJournal({ dir, intake, flushIntervalMs: 60_000 });
    for (const id of ['a', 'b', 'c']) journal.recordUsage(usage(id));
    journal.recordDecision(decision('a'));
    expect(journal.stats().queued).toBe(4);
    await journal.close();
    expect([...usageRows.keys()]).toEqual(['a', 'b', 'c']);
    expect(usageRows.get('a')?.createdAt).toEqual(new Date('2026-12-01T10:00:00Z'));
    expect([...decisionRows.keys()]).toEqual(['a']);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('after a process is killed with usage recorded, the next one writes it, once each, a cut last line skipped', async () => {
    const dir = newDir();
    const killed = new FileLearnJournal({ dir, intake: lost, flushIntervalMs: 60_000 });
    for (const id of ['a', 'b']) killed.recordUsage(usage(id));
    killed.recordDecision(decision('a'));
    appendFileSync(join(dir, readdirSync(dir)[0]!), '{"k":"u","v":{"requestId":"cut');
    const errors: unknown[] = [];
    const { intake, usageRows, decisionRows } = ledger();
    const next = new FileLearnJournal({ dir, intake, flushIntervalMs: 60_000, onError: (error) => errors.push(error) });
    // Usage is journaled; decisions are not (the routing log of the last interval is lost).
    expect(next.lastBacklog()).toMatchObject({ usage: 2, decisions: 0 });
    await next.flush();
    expect([...usageRows.values()].map((row) => [row.requestId, row.createdAt instanceof Date])).toEqual([
      ['a', true],
      ['b', true],
    ]);
    expect([...decisionRows.keys()]).toEqual([]);
    expect(errors).toHaveLength(1);
    await next.close();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps rows and their file while the store fails, and writes them once it answers', async () => {
    const dir = newDir();
    let down = true;
    const { intake, usageRows } = ledger(() => down);
    const journal = new FileLearnJournal({ dir, intake, flushIntervalMs: 60_000 });
    journal.recordUsage(usage('a'));
    await journal.flush();
    expect(journal.stats()).toMatchObject({ queued: 1, failures: 1 });
    expect(readdirSync(dir)).toHaveLength(2);
    journal.recordUsage(usage('b'));
    down = false;
    await journal.close();
    expect([...usageRows.keys()]).toEqual(['a', 'b']);
    expect(readdirSync(dir)).toEqual([]);
  });
});

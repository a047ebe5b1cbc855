import { describe, expect, it } from 'vitest';
import type { McpConnectionTarget } from './mcp-registry.js';
import { UpstreamPool } from './upstream-pool.js';

const target = (url: string, credential = 'a'): McpConnectionTarget => ({ name: 's', url, tools: null, withheld: new Set(), headers: () => ({ authorization: credential }) });

/** A pool of fake sessions (numbered as opened) whose ends are recorded. */
function fakePool(settings: { idleMs?: number; maxSessions?: number; now?: () => number } = {}) {
  const ended: number[] = [];
  let opened = 0;
  const pool = new UpstreamPool<number>({
    open: async () => {
      const id = ++opened;
      return { client: id, end: async () => void ended.push(id) };
    },
    sessionGone: (error) => error instanceof Error && error.message === 'gone',
    idleMs: settings.idleMs ?? 60_000,
    maxSessions: settings.maxSessions ?? 10,
    ...(settings.now ? { now: settings.now } : {}),
  });
  return { pool, ended };
}

describe('UpstreamPool', () => {
  it('reuses one session per URL and credential, never across credentials', async () => {
    const { pool } = fakePool();
    const seen = [];
    for (const entry of [target('u1'), target('u1'), target('u1', 'b'), target('u2')]) seen.push(await pool.use(entry, async (id) => id));
    expect(seen).toEqual([1, 1, 2, 3]);
    expect(pool.opened).toBe(3);
  });

  it('ends a session whose operation failed; the next operation opens another', async () => {
    const { pool, ended } = fakePool();
    await expect(pool.use(target('u'), async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(ended).toEqual([1]);
    expect(await pool.use(target('u'), async (id) => id)).toBe(2);
  });

  it('retries once on a new session when the server forgot the session', async () => {
    const { pool } = fakePool();
    let attempts = 0;
    const result = await pool.use(target('u'), async (id) => {
      attempts += 1;
      if (id === 1) throw new Error('gone');
      return id;
    });
    expect({ result, attempts }).toEqual({ result: 2, attempts: 2 });
  });

  it('ends idle sessions, the least recently used past the bound, and all at close', async () => {
    let now = 0;
    const { pool, ended } = fakePool({ idleMs: 1000, maxSessions: 2, now: () => now });
    await pool.use(target('u1'), async () => undefined);
    now = 500;
    await pool.use(target('u2'), async () => undefined);
    await pool.use(target('u3'), async () => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toEqual([1]);
    now = 2000;
    await pool.use(target('u4'), async () => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended.sort()).toEqual([1, 2, 3]);
    await pool.close();
    expect(ended.sort()).toEqual([1, 2, 3, 4]);
    expect(pool.size).toBe(0);
  });
});

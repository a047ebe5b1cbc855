import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '@svc/db';
import { afterAll, describe, expect, it } from 'vitest';
import { scaled } from './faults/scale.js';
import { spawnGatewayProcess, stopProcess } from './gateway-process.js';
import { masterKey } from './harness.js';

/**
 * Issue 33: the embedded default keeps every answered request across a restart, after SIGTERM
 * and after kill -9, as PostgreSQL with Redis does: the ledger is journaled in the data
 * directory (`journal/`) before it is batched into the store.
 */
describe('the embedded store across a crash', () => {
  let child: ChildProcess | undefined;
  let dataDir = '';
  afterAll(async () => {
    child?.kill('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function spawnGateway(env: Record<string, string> = {}): Promise<string> {
    const spawned = await spawnGatewayProcess({ SVC_DATA_DIR: dataDir, ...env });
    child = spawned.child;
    return spawned.url;
  }

  const stop = (signal: NodeJS.Signals) => stopProcess(child!, signal);

  const chat = (url: string, content: string, stream: boolean) =>
    fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock/mock-speed', stream, messages: [{ role: 'user', content }] }),
    });

  /** Load until `ms` have passed; the ids of whole answers and of cut ones. */
  async function load(url: string, ms: number): Promise<{ answered: string[]; cut: string[] }> {
    const run = randomUUID();
    const answered: string[] = [];
    const cut: string[] = [];
    const until = Date.now() + ms;
    const worker = async (w: number) => {
      for (let i = 0; Date.now() < until; i++) {
        const stream = (w + i) % 2 === 0;
        try {
          const response = await chat(url, `embedded crash ${run} ${w}/${i}`, stream);
          const id = response.headers.get('x-svc-request-id') ?? '';
          const text = await response.text().catch(() => undefined);
          const whole = response.status === 200 && text !== undefined && (!stream || text.includes('[DONE]'));
          (whole ? answered : cut).push(id);
        } catch {
          return; // the process is gone
        }
      }
    };
    await Promise.all(Array.from({ length: scaled(6) }, (_, w) => worker(w)));
    return { answered, cut };
  }

  /** Ledger rows per request id, read from the directory once no gateway holds it. */
  async function ledger(): Promise<Map<string, number>> {
    const db = await createDb({ dataDir });
    try {
      const org = await db.orgs.getByName('default');
      const counts = new Map<string, number>();
      for (const row of await db.usage.listByOrg(org!.id, { limit: 100_000 })) counts.set(row.requestId, (counts.get(row.requestId) ?? 0) + 1);
      return counts;
    } finally {
      await db.close();
    }
  }

  it('kill -9 mid-load, then SIGTERM: every answered request in the ledger once, none twice', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-embedded-crash-'));
    const url = await spawnGateway({ SVC_LEARN_FLUSH_MS: '200', SVC_MOCK_TOKENS_PER_SECOND: '200' });
    const loading = load(url, 2_500);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await stop('SIGKILL');
    const crashed = await loading;
    expect(crashed.answered.length).toBeGreaterThan(4);

    // The next start writes what the killed process journaled; a later SIGTERM flushes its own.
    const again = await spawnGateway();
    const calm = await load(again, 500);
    await stop('SIGTERM');
    const counts = await ledger();
    const missing = [...crashed.answered, ...calm.answered].filter((id) => counts.get(id) !== 1).map((id) => `${id}: ${counts.get(id) ?? 0}`);
    expect(missing).toEqual([]);
    expect([...crashed.cut, ...calm.cut].filter((id) => (counts.get(id) ?? 0) > 1)).toEqual([]);
  }, 240_000);
});

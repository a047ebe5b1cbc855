import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createDb } from '@svc/db';
import { afterAll, describe, expect, it } from 'vitest';
import { appDir, freePort, main, waitHealthy } from './gateway-process.js';
import { masterKey, startGateway } from './harness.js';

const shared = process.env.TEST_REDIS_URL && process.env.TEST_DATABASE_URL;

/** Issue 6: the usage ledger survives a crash of the gateway process (journaled in Redis Streams). */
describe.skipIf(!shared && process.env.CI !== 'true')('ledger crash', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('loses nothing and counts nothing twice when the process is killed with events queued', async () => {
    const port = await freePort();
    const env = {
      ...process.env,
      PORT: String(port),
      CONTROL_PORT: String(await freePort()),
      DATABASE_URL: process.env.TEST_DATABASE_URL ?? '',
      REDIS_URL: process.env.TEST_REDIS_URL ?? '',
      SVC_MASTER_KEY: masterKey,
      SVC_MOCK_PROVIDER: '1',
      // Nothing reaches the database before the kill: everything is still queued.
      SVC_LEARN_FLUSH_MS: '3600000',
      LOG_LEVEL: 'error',
    };
    child = spawn(process.execPath, ['--conditions=@svc/source', '--import', 'tsx', main, 'inference'], { env, cwd: appDir, stdio: ['ignore', 'ignore', 'inherit'] });
    const url = `http://127.0.0.1:${port}`;
    await waitHealthy(url, child);
    const run = randomUUID();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'mock/mock-speed', messages: [{ role: 'user', content: `crash test ${run} #${i}` }] }),
      });
      expect(response.status).toBe(200);
      ids.push(response.headers.get('x-svc-request-id')!);
      await response.arrayBuffer();
    }
    await new Promise((resolve) => setTimeout(resolve, 200)); // the journal appends follow each answer
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));

    const db = await createDb({ url: env.DATABASE_URL });
    const org = await db.orgs.getByName('default');
    const stored = async () => (await db.usage.listByOrg(org!.id, { limit: 1000 })).filter((e) => ids.includes(e.requestId));
    // The killed process wrote none of them: they exist only in the journal.
    expect(await stored()).toEqual([]);

    // A new instance drains the journal; draining twice must not count anything twice.
    const next = await startGateway({ DATABASE_URL: env.DATABASE_URL, REDIS_URL: env.REDIS_URL, SVC_MOCK_PROVIDER: '1' });
    try {
      await next.runtime.learn.flush();
      await next.runtime.learn.flush();
      const found = await stored();
      expect(found.map((e) => e.requestId).sort()).toEqual([...ids].sort());
    } finally {
      await db.close();
      await next.stop();
    }
  }, 60_000);
});

import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb } from './create-db.js';
import { CONTROL_FILE, DataDirError, LOCK_FILE, PGLITE_SUBDIR } from './data-dir-lock.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-lock-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const lockOf = (pid: number, host = hostname()) => JSON.stringify({ pid, hostname: host, since: '2026-01-01T00:00:00.000Z' });

async function refusal(dataDir: string): Promise<DataDirError> {
  const error = await createDb({ dataDir }).then(
    async (db) => {
      await db.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataDirError);
  return error as DataDirError;
}

describe('the embedded data directory', () => {
  it('refuses a non-empty directory that is not a PGlite data directory, and leaves it untouched', async () => {
    await writeFile(join(root, 'notes.txt'), 'mine');
    const error = await refusal(root);
    expect(error.reason).toBe('foreign');
    expect(error.message).toContain('is not a gateway data directory');
    expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('keeps a data directory made before the lock (PGlite files at the top) working', async () => {
    const dataDir = join(root, 'data');
    const db = await createDb({ dataDir });
    const org = await db.orgs.create({ name: 'legacy' });
    await db.close();
    await rename(join(dataDir, PGLITE_SUBDIR), join(root, 'legacy'));
    const reopened = await createDb({ dataDir: join(root, 'legacy') });
    expect(await reopened.orgs.get(org.id)).toEqual(org);
    await reopened.close();
  }, 60_000);

  it('is held while open: a second open fails, and the lock goes with close()', async () => {
    const dataDir = join(root, 'data');
    const first = await createDb({ dataDir });
    expect(JSON.parse(await readFile(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, hostname: hostname() });
    expect((await refusal(dataDir)).reason).toBe('held');
    await first.close();
    const second = await createDb({ dataDir });
    await second.close();
  }, 60_000);

  it('refuses a directory another live process holds, naming its pid', async () => {
    const dataDir = join(root, 'data');
    await (await createDb({ dataDir })).close();
    // The test runner's parent: alive, on this host, not this process.
    await writeFile(join(dataDir, LOCK_FILE), lockOf(process.ppid));
    const error = await refusal(dataDir);
    expect(error).toMatchObject({ reason: 'held', holder: { pid: process.ppid } });
    expect(error.message).toContain(`pid ${process.ppid}`);
  }, 60_000);

  it('takes over the lock of a process that is gone (a crash or kill -9)', async () => {
    const dataDir = join(root, 'data');
    const org = await (async () => {
      const db = await createDb({ dataDir });
      const created = await db.orgs.create({ name: 'survivor' });
      await db.close();
      return created;
    })();
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    await writeFile(join(dataDir, LOCK_FILE), lockOf(Number(gone.stdout.trim())));
    // What a killed gateway leaves beside its lock: where its admin API was.
    await writeFile(join(dataDir, CONTROL_FILE), JSON.stringify({ pid: Number(gone.stdout.trim()), control_url: 'http://127.0.0.1:1' }));
    const db = await createDb({ dataDir });
    expect(await db.orgs.get(org.id)).toEqual(org);
    await db.close();
  }, 60_000);
});

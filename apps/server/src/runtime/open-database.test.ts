import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCK_FILE } from '@svc/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from './env.js';
import { openDatabase } from './open-database.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-open-db-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function refusal(dataDir: string, opener: 'gateway' | 'cli'): Promise<string> {
  const error = await openDatabase({ SVC_DATA_DIR: dataDir }, opener, () => {}).then(
    async (db) => {
      await db.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  const message = (error as ConfigError).message;
  expect(message.split('\n')).toHaveLength(1);
  return message;
}

describe('openDatabase on the embedded store', () => {
  it('names SVC_DATA_DIR when the directory holds files that are not a gateway data directory', async () => {
    const dir = join(root, 'photos');
    await mkdir(dir);
    await writeFile(join(dir, 'cat.jpg'), 'meow');
    expect(await refusal(dir, 'gateway')).toMatch(/^SVC_DATA_DIR: .*photos holds other files and is not a gateway data directory; point it at an empty or new directory$/);
  });

  it('tells the CLI why it stops when a running gateway holds the directory, and what to do instead', async () => {
    const dir = join(root, 'held');
    await (await openDatabase({ SVC_DATA_DIR: dir }, 'gateway', () => {})).close();
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, hostname: hostname(), since: '2026-01-01T00:00:00.000Z' }));
    const message = await refusal(dir, 'cli');
    expect(message).toContain(`is open in a running gateway (pid ${process.ppid}`);
    expect(message).toContain('POST /v1/admin/keys');
    expect(await refusal(dir, 'gateway')).toContain('DATABASE_URL');
  }, 60_000);

  it('refuses, in one line naming SVC_DATA_DIR and what to run, a directory a newer release wrote', async () => {
    const dir = join(root, 'newer');
    await (await openDatabase({ SVC_DATA_DIR: dir }, 'gateway', () => {})).close();
    const marker = JSON.parse(await readFile(join(dir, 'svc-store.json'), 'utf8'));
    await writeFile(join(dir, 'svc-store.json'), JSON.stringify({ ...marker, store_format: marker.store_format + 1 }));
    expect(await refusal(dir, 'gateway')).toMatch(/^SVC_DATA_DIR: .*newer was written by a newer release \(store format 3.*pnpm svc backup FILE/);
  }, 60_000);
});

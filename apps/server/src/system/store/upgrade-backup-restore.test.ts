import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { november, writeAffectedRows, writeNovemberDirectory } from '@svc/db/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli-run.js';
import { startGateway } from '../../e2e/harness.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-upgrade-system-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function svc(dataDir: string, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { SVC_DATA_DIR: dataDir, SVC_SENTENCE_ENCODER: 'hashed', LOG_LEVEL: 'silent' }, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

// Issue 33: a November data directory (PGlite 0.3, tables in template1) opened by a PGlite 0.4
// release answered every old key with 401. The gateway now upgrades it on start.
describe('upgrading a data directory the November release wrote, then backing it up and restoring it', () => {
  it('serves the old keys, organisations, ledger and memories, and a backup restores them into a new directory', async () => {
    const dataDir = join(root, 'november');
    await writeNovemberDirectory(dataDir);
    await writeAffectedRows(dataDir);
    const backupFile = join(root, 'through-the-api.tgz');
    const gateway = await startGateway({ SVC_DATA_DIR: dataDir, SVC_MASTER_KEY: november.masterSecret });
    try {
      const chat = await fetch(`${gateway.inferenceUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: bearer(november.appSecret),
        body: JSON.stringify({ model: 'mock/mock-value', messages: [{ role: 'user', content: 'still here?' }] }),
      });
      expect(chat.status).toBe(200);
      const admin = (path: string, init: RequestInit = {}) => fetch(`${gateway.controlUrl}${path}`, { ...init, headers: bearer(november.masterSecret) });
      const orgs = (await (await admin('/v1/admin/orgs')).json()) as { data: { id: string; name: string }[] };
      expect(orgs.data.map((org) => [org.name, org.id]).sort()).toEqual([
        ['acme', november.acme],
        ['default', november.defaultOrg],
      ]);
      const spend = (await (await admin(`/v1/admin/keys/${november.app}/spend`)).json()) as { spent_usd: number };
      expect(spend.spent_usd).toBeGreaterThanOrEqual(0.003);
      const legacy = (await (await admin(`/v1/admin/orgs/${november.acme}/legacy-memory`)).json()) as { data: { role: string; text: string }[]; has_more: boolean };
      expect(legacy.data.map((memory) => memory.text).sort()).toEqual(['I live in Lisbon.', 'Noted: Lisbon.']);
      expect(legacy.has_more).toBe(false);

      const backup = await admin('/v1/admin/backup', { method: 'POST' });
      expect(backup.status).toBe(200);
      expect(backup.headers.get('content-type')).toBe('application/gzip');
      await writeFile(backupFile, Buffer.from(await backup.arrayBuffer()));
    } finally {
      await gateway.stop();
    }

    const restoredDir = join(root, 'restored');
    const restored = await svc(restoredDir, 'restore', backupFile);
    expect(restored.code).toBe(0);
    expect(JSON.parse(restored.out[0]!)).toMatchObject({ restored: backupFile, previous: null });
    const keys = await svc(restoredDir, 'keys', 'list');
    expect(keys.out.join('\n')).toContain(november.app);

    const direct = await svc(dataDir, 'backup', join(root, 'direct.tgz'));
    expect(direct).toMatchObject({ code: 0, out: [join(root, 'direct.tgz')] });
    expect(existsSync(join(root, 'direct.tgz'))).toBe(true);
  }, 600_000);

  it('refuses to restore over a directory a gateway runs on, in one line', async () => {
    const dataDir = join(root, 'busy');
    // The gateway runs in this process here; the lock says so instead of naming another pid.
    const gateway = await startGateway({ SVC_DATA_DIR: dataDir });
    try {
      const made = await svc(join(root, 'november'), 'backup', join(root, 'again.tgz'));
      expect(made.code).toBe(0);
      const refused = await svc(dataDir, 'restore', join(root, 'again.tgz'));
      expect(refused.code).toBe(2);
      expect(refused.err).toEqual([expect.stringMatching(/^svc: .*busy is (open in a running gateway|already open in this process).*: stop the gateway first, then run svc restore again$/)]);
    } finally {
      await gateway.stop();
    }
  }, 600_000);
});

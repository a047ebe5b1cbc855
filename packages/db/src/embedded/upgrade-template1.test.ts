import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../create-db.js';
import type { Database } from '../database.js';
import { sha256Hex } from '../test/fixtures.js';
import { affected, november, writeAffectedRows, writeNovemberDirectory } from '../test/november-release.js';
import { MARKER_FILE } from './store-marker.js';
import { FORMAT_1_ORIGINAL } from './upgrade-template1.js';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function newDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-upgrade-'));
  dirs.push(dir);
  return dir;
}

async function opened<T>(dataDir: string, read: (db: Database) => Promise<T>): Promise<{ result: T; notes: string[] }> {
  const notes: string[] = [];
  const db = await createDb({ dataDir, log: (note) => notes.push(note.message) });
  try {
    return { result: await read(db), notes };
  } finally {
    await db.close();
  }
}

const since = new Date(0);

describe('a data directory written by the November release (PGlite 0.3.8, schema 0008)', () => {
  it('opens with every organisation, key, ledger row, memory and dashboard user, and says it upgraded', async () => {
    const dataDir = await newDir();
    await writeNovemberDirectory(dataDir);
    const { result, notes } = await opened(dataDir, async (db) => ({
      orgs: (await db.orgs.list()).map((org) => [org.name, org.id]).sort(),
      app: await db.keys.findByHash(sha256Hex(november.appSecret)),
      spend: await db.usage.summary(november.acme, since, november.app),
      decisions: await db.decisions.get('req_nov_1'),
      legacy: (await db.legacyMemories.list(november.acme)).map((memory) => [memory.role, memory.text]).sort(),
      passkey: await db.passkeys.findByCredentialId('cred-november'),
      settings: await db.settings.get(november.acme),
    }));
    expect(result.orgs).toEqual([
      ['acme', november.acme],
      ['default', november.defaultOrg],
    ]);
    expect(result.app?.key.id).toBe(november.app);
    expect(result.app?.org).toMatchObject({ id: november.acme, plan: 'pro', rpmLimit: 100, monthlyBudgetUsd: 50 });
    // Columns added since (guardrails, migration 0024) read as "none" on rows the old release wrote.
    expect(result.app?.org.guardrails).toBeNull();
    expect(result.app?.key.guardrails).toBeNull();
    expect(result.spend.requests).toBe(2);
    expect(result.spend.costUsd).toBeCloseTo(0.003, 9);
    expect(result.decisions?.orgId).toBe(november.acme);
    expect(result.legacy).toEqual([
      ['assistant', 'Noted: Lisbon.'],
      ['user', 'I live in Lisbon.'],
    ]);
    expect(result.passkey?.user.email).toBe('ops@acme.test');
    expect(result.settings).toMatchObject({ default_intelligence_mode: 'cache' });
    expect(notes.join('\n')).toMatch(/upgraded the embedded store .* from format 1/);
    expect(existsSync(join(dataDir, FORMAT_1_ORIGINAL, 'PG_VERSION'))).toBe(true);
    expect(JSON.parse(await readFile(join(dataDir, MARKER_FILE), 'utf8'))).toMatchObject({ store_format: 2, upgraded_from: { store_format: 1 } });

    const again = await opened(dataDir, async (db) => (await db.orgs.list()).length);
    expect(again).toEqual({ result: 2, notes: [] });
  }, 240_000);

  it('brings the old rows back beside what a PGlite 0.4 release wrote since, under their original ids', async () => {
    const dataDir = await newDir();
    await writeNovemberDirectory(dataDir);
    await writeAffectedRows(dataDir);
    const read = async (db: Database) => ({
      orgs: (await db.orgs.list()).map((org) => [org.name, org.id]).sort(),
      master: await db.keys.findByHash(sha256Hex(november.masterSecret)),
      app2: await db.keys.findByHash(sha256Hex(affected.app2Secret)),
      keys: (await db.keys.list()).map((key) => key.id).sort(),
      acmeRows: (await db.usage.listByOrg(november.acme)).map((row) => [row.requestId, row.keyId]).sort(),
      masterSpend: await db.usage.summary(november.defaultOrg, since, november.master),
      masterFacts: (await db.memories.list(november.defaultOrg, { subject: `k:${november.master}` })).map((memory) => memory.text),
      user: await db.dashboardUsers.getByEmail('ops@acme.test'),
      passkeys: (await db.passkeys.listByUser(november.user)).map((passkey) => passkey.id).sort(),
    });
    const { result } = await opened(dataDir, read);
    expect(result.orgs).toEqual([
      ['acme', november.acme],
      ['default', november.defaultOrg],
    ]);
    expect(result.master?.key.id).toBe(november.master);
    expect(result.app2?.key.orgId).toBe(november.acme);
    expect(result.keys).toEqual([affected.app2, november.app, november.master].sort());
    expect(result.acmeRows).toEqual([
      ['req_aff_2', affected.app2],
      ['req_nov_1', november.app],
      ['req_nov_2', november.app],
    ]);
    expect(result.masterSpend.requests).toBe(2);
    expect(result.masterSpend.costUsd).toBeCloseTo(0.012, 9);
    expect(result.masterFacts).toEqual(['I work as a nurse.']);
    expect(result.user).toMatchObject({ id: november.user, role: 'admin' });
    expect(result.passkeys).toEqual(['pk_aff', 'pk_nov']);
  }, 300_000);
});

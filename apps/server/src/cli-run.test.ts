import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DashboardAccounts, FailureThrottle, defaultSignInLimits } from '@svc/auth';
import { createDb } from '@svc/db';
import { createMemoryKv } from '@svc/kv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDuration } from './cli-args.js';
import { runCli } from './cli-run.js';

let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svc-cli-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function svc(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { SVC_DATA_DIR: dataDir }, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

describe('svc CLI on the embedded store', () => {
  it('creates an org, a key with limits and expiry, lists and revokes it', async () => {
    expect((await svc('migrate')).code).toBe(0);
    const org = await svc('orgs', 'create', 'acme', '--rpm', '60');
    expect(org.code).toBe(0);
    expect(JSON.parse(org.out[0]!)).toMatchObject({ name: 'acme', rpm_limit: 60 });

    const created = await svc('keys', 'create', '--org', 'acme', '--scopes', 'inference:chat,memory:read', '--tpm', '1000', '--budget-usd', '12.5', '--expires-in', '30d');
    expect(created.code).toBe(0);
    const secret = created.out[0]!;
    expect(secret).toMatch(/^sk-svc-/);
    expect(created.err[0]).toContain('shown only this once');

    const listed = await svc('keys', 'list', '--org', 'acme');
    expect(listed.out).toHaveLength(1);
    expect(listed.out[0]).toContain('active');
    expect(listed.out[0]).toContain('tpm=1000  budget=$12.5');
    expect(listed.out[0]).not.toContain(secret);
    const keyId = listed.out[0]!.split(/\s+/)[0]!;

    const db = await createDb({ dataDir });
    try {
      const acme = await db.orgs.getByName('acme');
      // --tpm and --budget-usd held the key, not the organisation.
      expect(acme).toMatchObject({ rpmLimit: 60, tpmLimit: null, monthlyBudgetUsd: null });
      const key = await db.keys.get(keyId);
      expect(key).toMatchObject({ rpmLimit: null, tpmLimit: 1000, monthlyBudgetUsd: 12.5 });
      expect(key!.scopes).toEqual(['inference:chat', 'memory:read']);
      const days = (key!.expiresAt!.getTime() - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThan(30.1);
    } finally {
      await db.close();
    }

    expect(JSON.parse((await svc('keys', 'revoke', keyId)).out[0]!)).toEqual({ id: keyId, status: 'revoked' });
    expect((await svc('keys', 'list', '--org', 'acme')).out[0]).toContain('revoked');
  }, 60_000);

  it('explains bad input with exit code 2', async () => {
    expect((await svc('keys', 'create')).err[0]).toContain('--org NAME is required');
    expect((await svc('keys', 'create', '--org', 'x', '--scopes', 'root')).err[0]).toContain("unknown scope 'root'");
    expect((await svc('keys', 'create', '--org', 'x', '--expires-in', 'soon')).err[0]).toContain('--expires-in');
    expect((await svc('keys', 'create', '--org', 'x', '--rpm', '-3')).code).toBe(2);
    expect((await svc('keys', 'revoke', 'key_nope')).err[0]).toContain("no API key 'key_nope'");
    expect((await svc('frobnicate')).code).toBe(2);
    expect((await svc('--bogus')).code).toBe(2);
  }, 60_000);

  it('parses durations', () => {
    expect(parseDuration('30d')).toBe(30 * 86_400_000);
    expect(parseDuration('12h')).toBe(12 * 3_600_000);
    expect(parseDuration('90m')).toBe(90 * 60_000);
    expect(parseDuration('3600s')).toBe(3_600_000);
    expect(parseDuration('2w')).toBe(14 * 86_400_000);
    expect(parseDuration('10y')).toBeUndefined();
  });
});

describe('svc users', () => {
  it('creates a dashboard user with a one-time enrollment link that the server redeems once', async () => {
    expect((await svc('orgs', 'create', 'dash-org')).code).toBe(0);
    const created = await svc('users', 'create', '--email', 'Ops@Example.com', '--org', 'dash-org', '--role', 'admin');
    expect(created.code).toBe(0);
    expect(created.out[0]).toMatch(/^http:\/\/localhost:8081\/dashboard\/enroll#token=[\w-]+$/);
    expect(created.err[0]).toContain('works once');
    expect((await svc('users', 'create', '--email', 'ops@example.com', '--org', 'dash-org')).code).toBe(2);
    expect((await svc('users', 'create', '--email', 'x@example.com', '--org', 'dash-org', '--role', 'owner')).code).toBe(2);
    expect((await svc('users', 'create', '--email', 'x@example.com', '--org', 'missing')).code).toBe(2);
    expect((await svc('users', 'list')).out.join('\n')).toContain('ops@example.com  admin');

    const reissued = await svc('users', 'enroll', 'ops@example.com');
    expect(reissued.code).toBe(0);
    const db = await createDb({ dataDir });
    try {
      const kv = createMemoryKv();
      const throttle = new FailureThrottle({ kv, name: 'enrollment', ...defaultSignInLimits.enrollment });
      const accounts = new DashboardAccounts({ store: db, origin: 'http://localhost:8081', enrollmentTtlMs: 60_000, throttle });
      const token = (url: string) => new URL(url).hash.replace('#token=', '');
      expect(await accounts.redeemEnrollment(token(created.out[0]!))).toBeUndefined();
      expect((await accounts.redeemEnrollment(token(reissued.out[0]!)))?.email).toBe('ops@example.com');
      expect(await accounts.redeemEnrollment(token(reissued.out[0]!))).toBeUndefined();
      await kv.close();
    } finally {
      await db.close();
    }
  }, 60_000);
});

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { CONTROL_FILE, LOCK_FILE } from '@svc/db';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli-run.js';
import { ConfigError } from '../../runtime/env.js';
import { type Gateway, call, newOrg, passkeyUser, signIn, startSecureGateway } from './security-kit.js';

// Issue #36 findings 1 and 2: the key list, the access log and a member's pages showed 14
// characters of a 16-character master key, and a new SVC_MASTER_KEY left the old one working.

const keyA = 'Ha7Lq2Xv9RtB4mZc8WpK3sNd6FgJ1yUe0oQi';
const keyB = 'Tz5Nw1Pc8Yr3Km6Vb2Xq9Lf4Hd7Gs0Ja5Ue';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-master-key-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const onDisk = (name: string, masterKey: string, env: Record<string, string> = {}) => startSecureGateway({ SVC_DATA_DIR: join(dir, name), SVC_MASTER_KEY: masterKey, ...env });
const adminStatus = async (gateway: Gateway, key: string) => (await call(gateway, 'GET', '/v1/admin/orgs', { bearer: key })).status;
const masters = async (gateway: Gateway, key: string) =>
  ((await call(gateway, 'GET', '/v1/admin/keys', { bearer: key })).json.data as Array<{ kind: string; status: string; prefix: string; expires_at: string | null }>).filter((k) => k.kind === 'master');

describe('the master key is never shown in part', () => {
  it('the admin list, a member of org default and the dashboard show `master`, nothing of the key', async () => {
    const gateway = await onDisk('shown', keyA);
    try {
      const listed = await call(gateway, 'GET', '/v1/admin/keys', { bearer: keyA });
      expect(listed.json.data).toContainEqual(expect.objectContaining({ kind: 'master', prefix: 'master' }));
      expect(JSON.stringify(listed.json)).not.toContain(keyA.slice(0, 6));
      const defaultOrg = ((await call(gateway, 'GET', '/v1/admin/orgs', { bearer: keyA })).json.data as Array<{ id: string; name: string }>).find((org) => org.name === 'default')!;
      const member = await signIn(gateway, await passkeyUser(gateway, defaultOrg.id, 'member', keyA));
      for (const path of ['/dashboard/keys', '/dashboard/requests']) {
        const page = await (await fetch(`${gateway.controlUrl}${path}`, { headers: { cookie: member.cookie! } })).text();
        expect(page, path).not.toContain(keyA.slice(0, 6));
      }
      // A generated key shows `sk-svc-` and its public identifier, none of its 40 secret characters.
      const created = await call(gateway, 'POST', '/v1/admin/keys', { bearer: keyA, body: { org_id: await newOrg(gateway, 'shown', keyA) } });
      const secret = created.json.key as string;
      const row = ((await call(gateway, 'GET', '/v1/admin/keys', { bearer: keyA })).json.data as Array<{ id: string; prefix: string }>).find((k) => k.id === created.json.id)!;
      expect(row.prefix).toBe(secret.slice(0, 15));
      expect(secret.slice(15)).toHaveLength(40);
    } finally {
      await gateway.stop();
    }
  });
});

describe('rotation', () => {
  it('a new SVC_MASTER_KEY on the same data directory revokes the previous one at start, which cannot come back', async () => {
    const first = await onDisk('rotate', keyA);
    await first.stop();
    const second = await onDisk('rotate', keyB);
    try {
      expect(await adminStatus(second, keyA)).toBe(401);
      expect(await adminStatus(second, keyB)).toBe(200);
      expect((await masters(second, keyB)).filter((k) => k.status === 'active')).toHaveLength(1);
    } finally {
      await second.stop();
    }
    const refused = await onDisk('rotate', keyA).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).message).toMatch(/^SVC_MASTER_KEY: was replaced by a newer master key and revoked at /);
  });

  it('SVC_MASTER_KEY_GRACE_SECS keeps the previous key working for a rolling restart', async () => {
    await (await onDisk('grace', keyA)).stop();
    const gateway = await onDisk('grace', keyB, { SVC_MASTER_KEY_GRACE_SECS: '600' });
    try {
      expect(await adminStatus(gateway, keyA)).toBe(200);
      const previous = (await masters(gateway, keyB)).find((k) => k.expires_at !== null);
      expect(Date.parse(previous!.expires_at!)).toBeGreaterThan(Date.now() + 590_000);
    } finally {
      await gateway.stop();
    }
  });

  it('pnpm svc master-key rotate, sent to the running gateway: a new key printed once, the previous one revoked there at once', async () => {
    const gateway = await onDisk('cli', keyA);
    // The directory as a gateway in another process holds it (the runner's parent), noting this one's admin API.
    const held = join(dir, 'cli-held');
    await mkdir(held);
    await writeFile(join(held, LOCK_FILE), JSON.stringify({ pid: process.ppid, hostname: hostname(), since: '2026-01-01T00:00:00.000Z' }));
    await writeFile(join(held, CONTROL_FILE), JSON.stringify({ pid: process.ppid, control_url: gateway.controlUrl, master_key: true }));
    const out: string[] = [];
    const err: string[] = [];
    try {
      const code = await runCli(['master-key', 'rotate'], { SVC_DATA_DIR: held, SVC_MASTER_KEY: keyA }, { out: (line) => out.push(line), err: (line) => err.push(line) });
      expect(code, err.join('\n')).toBe(0);
      const fresh = out[0]!;
      expect(fresh).toMatch(/^sk-svc-master-[0-9A-Za-z]{40}$/);
      expect(err[0]).toContain('set SVC_MASTER_KEY to it');
      expect(await adminStatus(gateway, keyA)).toBe(401);
      expect(await adminStatus(gateway, fresh)).toBe(200);
      // Only the master key in force may rotate: another admin key is refused.
      const adminKey = (await call(gateway, 'POST', '/v1/admin/keys', { bearer: fresh, body: { org_id: await newOrg(gateway, 'cli', fresh), scopes: ['admin'] } })).json.key as string;
      expect((await call(gateway, 'POST', '/v1/admin/master-key/rotate', { bearer: adminKey, body: {} })).status).toBe(403);
    } finally {
      await gateway.stop();
    }
    const refused = await onDisk('cli', keyA).catch((error: unknown) => error);
    expect(String(refused)).toMatch(/newer master key/);
  });
});

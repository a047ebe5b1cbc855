import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTROL_FILE, LOCK_FILE } from '@svc/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './cli-run.js';
import { type ControlNote, localUrl } from './control-file.js';
import { masterKey, startGateway } from './e2e/harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

let gateway: Gateway;
let root: string;

beforeAll(async () => {
  gateway = await startGateway();
  root = await mkdtemp(join(tmpdir(), 'svc-cli-forward-'));
});
afterAll(async () => {
  await gateway?.stop();
  await rm(root, { recursive: true, force: true });
});

/**
 * A data directory as a running gateway holds it: its lock names a live process on this host
 * that is not this one (the test runner's parent), beside `note`.
 */
async function heldDir(name: string, note: ControlNote): Promise<string> {
  const dataDir = join(root, name);
  await mkdir(dataDir);
  await writeFile(join(dataDir, LOCK_FILE), JSON.stringify({ pid: process.ppid, hostname: hostname(), since: '2026-01-01T00:00:00.000Z' }));
  await writeFile(join(dataDir, CONTROL_FILE), JSON.stringify(note));
  return dataDir;
}

async function svc(environment: Record<string, string>, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, environment, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

/** A CLI transcript with what differs between two stores (ids, secrets, times, tokens) replaced. */
function normalised(lines: string[]): string[] {
  return lines.map((line) =>
    line
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID')
      .replace(/key_[\w-]+/g, 'KEY')
      .replace(/sk-svc-[\w-]+/g, 'SECRET')
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME')
      .replace(/#token=[\w-]+/g, '#token=TOKEN')
      .replace(/http:\/\/localhost:\d+/g, 'ORIGIN'),
  );
}

const script = [
  ['migrate'],
  ['orgs', 'create', 'acme', '--rpm', '60', '--budget-usd', '100'],
  ['keys', 'create', '--org', 'acme', '--scopes', 'inference:chat,memory:read', '--rpm', '30', '--tpm', '1000', '--budget-usd', '12.5', '--name', 'ci'],
  ['keys', 'create', '--org', 'newco', '--plan', 'pro', '--token-quota', '5000'],
  ['keys', 'list', '--org', 'acme'],
  ['orgs', 'list'],
  ['users', 'create', '--email', 'Ops@Example.com', '--org', 'acme', '--role', 'admin'],
  ['users', 'enroll', 'ops@example.com'],
  ['users', 'list'],
  ['users', 'set-role', 'ops@example.com', '--role', 'member'],
  ['users', 'disable', 'ops@example.com'],
  ['users', 'list'],
  ['users', 'enable', 'ops@example.com'],
  ['users', 'end-sessions', 'ops@example.com'],
  ['users', 'delete', 'ops@example.com'],
  ['users', 'delete', 'ops@example.com'],
  ['users', 'list'],
  ['keys', 'revoke', 'key_nope'],
];

/** Runs the script; revokes the first key it created on the way; the transcript. */
async function transcript(environment: Record<string, string>): Promise<string[]> {
  const lines: string[] = [];
  let firstKey: string | undefined;
  for (const args of script) {
    const { code, out, err } = await svc(environment, ...args);
    lines.push(`$ ${args.join(' ')} -> ${code}`, ...out, ...err);
    firstKey ??= /^created (key_\S+) /.exec(err[0] ?? '')?.[1];
  }
  const revoked = await svc(environment, 'keys', 'revoke', firstKey!);
  lines.push('$ keys revoke FIRST', ...revoked.out, ...(await svc(environment, 'keys', 'list', '--org', 'acme')).out);
  return lines;
}

describe('svc CLI forwarding to the admin API of the gateway that holds the directory', () => {
  it('prints what the direct path prints, for every command, and writes through the gateway', async () => {
    const dataDir = await heldDir('held', { pid: process.ppid, control_url: gateway.controlUrl, master_key: true });
    const forwarded = await transcript({ SVC_DATA_DIR: dataDir, SVC_MASTER_KEY: masterKey });
    const direct = await transcript({ SVC_DATA_DIR: join(root, 'direct') });
    // The gateway also has the master key's organisation, `default`; the fresh directory has not.
    expect(normalised(forwarded.filter((line) => !/^\S+ {2}default {2}plan=/.test(line)))).toEqual(normalised(direct));
    expect(forwarded.join('\n')).toContain('budget=$12.5');

    const { db } = gateway.runtime;
    expect(await db.orgs.getByName('newco')).toMatchObject({ plan: 'pro', tokenQuota: 5000 });
    // The script ends by deleting the user, through the gateway.
    expect(await db.dashboardUsers.getByEmail('ops@example.com')).toBeUndefined();
  }, 180_000);

  it('stops with one line when it cannot forward', async () => {
    const dataDir = await heldDir('keyless', { pid: process.ppid, control_url: gateway.controlUrl, master_key: true });
    const keyless = await svc({ SVC_DATA_DIR: dataDir }, 'orgs', 'list');
    expect(keyless).toMatchObject({ code: 2, out: [] });
    expect(keyless.err).toEqual([
      `svc: SVC_DATA_DIR: ${dataDir} is open in a running gateway (pid ${process.ppid} since 2026-01-01T00:00:00.000Z); the CLI forwards commands to its admin API at ${gateway.controlUrl} and needs SVC_MASTER_KEY, the master key that gateway runs with`,
    ]);

    const wrong = await svc({ SVC_DATA_DIR: dataDir, SVC_MASTER_KEY: 'sk-svc-not-the-master-key-k3ZondvPDBW4mUatCPgPE6nx' }, 'orgs', 'list');
    expect(wrong.code).toBe(2);
    expect(wrong.err).toHaveLength(1);
    expect(wrong.err[0]).toMatch(/answered 401: .*; SVC_MASTER_KEY must be the master key that gateway runs with$/);

    const keylessGateway = await svc({ SVC_DATA_DIR: await heldDir('keyless-gateway', { pid: process.ppid, control_url: gateway.controlUrl, master_key: false }), SVC_MASTER_KEY: masterKey }, 'orgs', 'list');
    expect(keylessGateway.err).toHaveLength(1);
    expect(keylessGateway.err[0]).toContain('without SVC_MASTER_KEY, so its admin API at');

    const inferenceOnly = await svc({ SVC_DATA_DIR: await heldDir('inference', { pid: process.ppid, control_url: null, master_key: true }), SVC_MASTER_KEY: masterKey }, 'orgs', 'list');
    expect(inferenceOnly.err).toHaveLength(1);
    expect(inferenceOnly.err[0]).toContain('that serves no admin API (it runs the inference role only)');

    // A note of another process (one that died and left it) is not believed: the lock's refusal stands.
    const stale = await svc({ SVC_DATA_DIR: await heldDir('stale', { pid: process.pid, control_url: gateway.controlUrl, master_key: true }), SVC_MASTER_KEY: masterKey }, 'orgs', 'list');
    expect(stale.code).toBe(2);
    expect(stale.err).toHaveLength(1);
    expect(stale.err[0]).toContain('the CLI would write behind its back');
  }, 60_000);

  it('reaches a gateway on a wildcard address through loopback', () => {
    expect(localUrl('0.0.0.0', 8081)).toBe('http://127.0.0.1:8081');
    expect(localUrl('::', 8081)).toBe('http://[::1]:8081');
    expect(localUrl('10.0.0.5', 8081)).toBe('http://10.0.0.5:8081');
  });
});

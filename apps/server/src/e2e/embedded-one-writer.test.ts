import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTROL_FILE } from '@svc/db';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli-run.js';
import { appDir, freePort, main, waitHealthy } from './gateway-process.js';
import { masterKey } from './harness.js';

/** A gateway process on `dataDir` (embedded store, mock provider), healthy. */
async function startChild(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const env = { PATH: process.env.PATH, SVC_DATA_DIR: dataDir, PORT: String(port), CONTROL_PORT: String(await freePort()), SVC_MASTER_KEY: masterKey, SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'error' };
  const child = spawn(process.execPath, ['--conditions=@svc/source', '--import', 'tsx', main], { env, cwd: appDir, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child, 600);
  return { child, url };
}

async function stopChild(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A chat completion with `key`: its status. */
async function chatStatus(url: string, key: string): Promise<number> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock/mock-value', messages: [{ role: 'user', content: 'hi' }] }),
  });
  await response.arrayBuffer();
  return response.status;
}

// Issue 19: `pnpm svc keys create` while `pnpm start` ran printed a key the server rejected, and
// both processes wrote one PGlite directory, so the org and key were gone after a restart. The
// CLI now never opens a directory a live gateway holds: it forwards to that gateway's admin API.
describe('the embedded data directory has one writer', () => {
  let child: ChildProcess | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    child?.kill('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const svc = async (environment: Record<string, string>, ...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, { SVC_DATA_DIR: dataDir!, ...environment }, { out: (line) => out.push(line), err: (line) => err.push(line) });
    return { code, out, err };
  };
  const forwarded = (...args: string[]) => svc({ SVC_MASTER_KEY: masterKey }, ...args);

  it('the CLI forwards to the running gateway, prints what the direct path prints, and the rows outlive a restart', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-one-writer-'));
    const first = await startChild(dataDir);
    child = first.child;

    const refused = await svc({}, 'keys', 'create', '--org', 'acme');
    expect(refused).toMatchObject({ code: 2, out: [] });
    expect(refused.err).toHaveLength(1);
    expect(refused.err[0]).toMatch(new RegExp(`^svc: SVC_DATA_DIR: .* is open in a running gateway \\(pid ${first.child.pid} since .*\\); the CLI forwards commands to its admin API at http://127\\.0\\.0\\.1:\\d+ and needs SVC_MASTER_KEY`));

    expect((await forwarded('migrate')).out).toEqual(['migrations applied (pglite)']);
    const org = await forwarded('orgs', 'create', 'acme', '--rpm', '60');
    expect(JSON.parse(org.out[0]!)).toMatchObject({ name: 'acme', plan: 'free', rpm_limit: 60, tpm_limit: null, monthly_budget_usd: null });
    const created = await forwarded('keys', 'create', '--org', 'acme', '--rpm', '100', '--expires-in', '30d');
    expect(created.code).toBe(0);
    const secret = created.out[0]!;
    expect(secret).toMatch(/^sk-svc-/);
    expect(created.err[0]).toMatch(/^created key_\S+ for org acme \(\S+\); scopes [\w:,]+; 100 requests\/min; expires \S+Z\. The key is shown only this once\.$/);
    expect(await chatStatus(first.url, secret)).toBe(200);

    const doomed = await forwarded('keys', 'create', '--org', 'acme', '--name', 'doomed');
    const doomedId = /^created (\S+) /.exec(doomed.err[0]!)![1]!;
    expect((await forwarded('keys', 'revoke', doomedId)).out).toEqual([JSON.stringify({ id: doomedId, status: 'revoked' })]);
    expect(await chatStatus(first.url, doomed.out[0]!)).toBe(401);
    expect((await forwarded('keys', 'revoke', 'key_nope')).err).toEqual(["svc: no API key 'key_nope'"]);

    const user = await forwarded('users', 'create', '--email', 'Ops@Example.com', '--org', 'acme', '--role', 'admin');
    expect(user.out[0]).toMatch(/\/dashboard\/enroll#token=[\w-]+$/);
    expect(user.err[0]).toContain('created dashboard user ops@example.com (admin) of org acme');
    expect((await forwarded('users', 'enroll', 'ops@example.com')).code).toBe(0);

    // A backup through the running gateway: a file a restore into a new directory reads back.
    const backupFile = `${dataDir}.backup.tgz`;
    expect((await forwarded('backup', backupFile)).out).toEqual([backupFile]);
    const restoredDir = `${dataDir}.restored`;
    expect((await svc({}, 'restore', backupFile)).code).toBe(2);
    const told: string[] = [];
    expect(await runCli(['restore', backupFile], { SVC_DATA_DIR: restoredDir }, { out: () => {}, err: (line) => told.push(line) }), told.join('\n')).toBe(0);
    const listed: string[] = [];
    expect(await runCli(['orgs', 'list'], { SVC_DATA_DIR: restoredDir }, { out: (line) => listed.push(line), err: () => {} })).toBe(0);
    expect(listed.join('\n')).toContain('acme');
    await rm(restoredDir, { recursive: true, force: true });
    await rm(backupFile, { force: true });

    const reads = [['orgs', 'list'], ['keys', 'list', '--org', 'acme'], ['users', 'list']];
    const throughApi = await Promise.all(reads.map((args) => forwarded(...args)));
    expect(throughApi[1]!.out.join('\n')).toMatch(/active {2}org=\S+ {2}scopes=\S+ {2}rpm=100/);

    await stopChild(first.child);
    expect(existsSync(join(dataDir, CONTROL_FILE))).toBe(false);
    // The same reads on the directory itself, now that no gateway holds it: the same lines.
    for (const [index, args] of reads.entries()) expect((await svc({}, ...args!)).out).toEqual(throughApi[index]!.out);

    const second = await startChild(dataDir);
    child = second.child;
    expect(await chatStatus(second.url, secret)).toBe(200);
    expect(await chatStatus(second.url, doomed.out[0]!)).toBe(401);
  }, 180_000);
});

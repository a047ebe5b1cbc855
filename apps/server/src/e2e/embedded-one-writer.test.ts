import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appDir, freePort, main, waitHealthy } from './gateway-process.js';
import { runCli } from '../cli-run.js';


async function svc(dataDir: string, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { SVC_DATA_DIR: dataDir }, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

// Issue 19: `pnpm svc keys create` while `pnpm start` ran printed a key the server rejected, and
// both processes wrote one PGlite directory, so the org and key were gone after a restart.
describe('the embedded data directory has one writer', () => {
  let child: ChildProcess | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    child?.kill('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('the CLI stops with one line while a gateway runs on it, and works once the gateway stopped', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-one-writer-'));
    const port = await freePort();
    const env = { PATH: process.env.PATH, SVC_DATA_DIR: dataDir, PORT: String(port), CONTROL_PORT: String(await freePort()), SVC_MOCK_PROVIDER: '1', LOG_LEVEL: 'error' };
    const gateway = spawn(process.execPath, ['--conditions=@svc/source', '--import', 'tsx', main], { env, cwd: appDir, stdio: ['ignore', 'ignore', 'inherit'] });
    child = gateway;
    await waitHealthy(`http://127.0.0.1:${port}`, gateway, 600);

    const refused = await svc(dataDir, 'keys', 'create', '--org', 'acme');
    expect(refused.code).toBe(2);
    expect(refused.out).toEqual([]);
    expect(refused.err).toHaveLength(1);
    expect(refused.err[0]).toMatch(new RegExp(`^svc: SVC_DATA_DIR: .* is open in a running gateway \\(pid ${gateway.pid} since .*\\); the CLI would write behind its back`));

    const exited = new Promise((resolve) => gateway.once('exit', resolve));
    gateway.kill('SIGTERM');
    await exited;
    const created = await svc(dataDir, 'keys', 'create', '--org', 'acme');
    expect(created.code).toBe(0);
    expect(created.out[0]).toMatch(/^sk-svc-/);
  }, 120_000);
});

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli-run.js';

const main = fileURLToPath(new URL('../main.ts', import.meta.url));
const appDir = fileURLToPath(new URL('../..', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitHealthy(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('gateway did not become healthy');
}

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
    await waitHealthy(`http://127.0.0.1:${port}`, gateway);

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

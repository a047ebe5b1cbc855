import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { masterKey } from './harness.js';

/** The server's entry point, run from source by e2e tests that start a real gateway process. */
export const main = fileURLToPath(new URL('../main.ts', import.meta.url));
/** The server app's folder (the child's working directory). */
export const appDir = fileURLToPath(new URL('../..', import.meta.url));

/** A TCP port nothing listens on at the moment of asking. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once `url/health` answers 200; rejects when the child exits first or after `tries` x 100 ms. */
export async function waitHealthy(url: string, child: ChildProcess, tries = 300): Promise<void> {
  for (let i = 0; i < tries; i++) {
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

/** A gateway started from source in a child process on free ports, with the mock provider and the master key: its URL and process. */
export async function spawnGatewayProcess(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const full = { PATH: process.env.PATH, PORT: String(port), CONTROL_PORT: String(await freePort()), SVC_MASTER_KEY: masterKey, SVC_MOCK_PROVIDER: '1', SVC_SENTENCE_ENCODER: 'hashed', LOG_LEVEL: 'error', ...env };
  const child = spawn(process.execPath, ['--conditions=@svc/source', '--import', 'tsx', main], { env: full, cwd: appDir, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(url, child, 900);
  return { url, child };
}

/** Sends `signal` to `child` and resolves once it exited. */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/** Uploads `lines` as a batch input file and creates a `/v1/chat/completions` batch with them on the gateway at `url`; the batch id. */
export async function submitChatBatch(url: string, lines: readonly object[]): Promise<string> {
  const auth = { authorization: `Bearer ${masterKey}` };
  const form = new FormData();
  form.set('purpose', 'batch');
  form.set('file', new Blob([lines.map((line) => JSON.stringify(line)).join('\n')]), 'input.jsonl');
  const file = (await (await fetch(`${url}/v1/files`, { method: 'POST', headers: auth, body: form })).json()) as { id: string };
  const created = await fetch(`${url}/v1/batches`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' }) });
  return ((await created.json()) as { id: string }).id;
}

/** A gateway process a test starts again and again on one new data directory (`env` beside it): start it, stop it with a signal, and at the end kill it and remove the directory. */
export async function restartableGateway(env: Record<string, string>): Promise<{ dataDir: string; start(): Promise<string>; stop(signal: NodeJS.Signals): Promise<void>; remove(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-gateway-'));
  let child: ChildProcess | undefined;
  return {
    dataDir,
    async start() {
      const spawned = await spawnGatewayProcess({ SVC_DATA_DIR: dataDir, ...env });
      child = spawned.child;
      return spawned.url;
    },
    stop: (signal) => stopProcess(child!, signal),
    async remove() {
      child?.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

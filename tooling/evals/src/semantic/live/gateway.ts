import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';

/** The gateway's entry point, run from source the way the server's e2e tests run it. */
const main = fileURLToPath(new URL('../../../../../apps/server/src/main.ts', import.meta.url));
const appDir = fileURLToPath(new URL('../../../../../apps/server/', import.meta.url));
const masterKey = 'sk-svc-live-eval-master-key-0123456789';

/** A running gateway process on a fresh data directory, and an API key it created. */
export interface LiveGateway {
  baseUrl: string;
  apiKey: string;
  /** The control plane's URL and the master key (admin API). */
  controlUrl: string;
  masterKey: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitHealthy(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('gateway did not become healthy in 120 s');
}

/** How a process ended: its exit code, or the signal that killed it. */
interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Sends SIGTERM (unless the process has already ended) and resolves once it has ended. */
export function terminate(child: ChildProcess): Promise<Ended> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.kill('SIGTERM');
  });
}

/**
 * A gateway that did not end cleanly on SIGTERM (an abort at shutdown, a failed flush) is said on
 * stderr and makes the evaluation exit non-zero, without losing the figures already printed or
 * about to be: a regression of the shutdown shows in every live run.
 */
export function reportUncleanEnd(ended: Ended): void {
  if (ended.code === 0) return;
  console.error(`the gateway did not end cleanly on SIGTERM: ${ended.signal === null ? `exit code ${ended.code}` : `killed by ${ended.signal}`}`);
  process.exitCode = 1;
}

const orgList = v.object({ data: v.array(v.object({ id: v.string(), name: v.string() })) });
const createdKey = v.object({ key: v.string() });

/** Creates an API key for the master key's organisation (`default`) through the admin API. */
async function createKey(controlUrl: string): Promise<string> {
  const headers = { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' };
  const orgs = v.parse(orgList, await (await fetch(`${controlUrl}/v1/admin/orgs`, { headers })).json());
  const org = orgs.data.find((o) => o.name === 'default');
  if (!org) throw new Error('no organisation `default` on the fresh gateway');
  const response = await fetch(`${controlUrl}/v1/admin/keys`, { method: 'POST', headers, body: JSON.stringify({ org_id: org.id, name: 'semantic-live-eval' }) });
  if (response.status !== 201) throw new Error(`POST /v1/admin/keys answered ${response.status}: ${await response.text()}`);
  return v.parse(createdKey, await response.json()).key;
}

/**
 * Starts `apps/server/src/main.ts` with the shipped defaults: a fresh temporary SVC_DATA_DIR, a
 * master key, no provider key (the built-in mock provider answers), nothing else set but `extra`
 * (empty for the figures; a diagnosis may set e.g. SVC_SEMANTIC_MAX_ENTRIES).
 */
export async function startLiveGateway(extra: Record<string, string> = {}): Promise<LiveGateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-semantic-live-'));
  const [port, controlPort] = [await freePort(), await freePort()];
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, SVC_DATA_DIR: join(dataDir, 'data'), PORT: String(port), CONTROL_PORT: String(controlPort), SVC_MASTER_KEY: masterKey, LOG_LEVEL: 'warn', ...extra };
  const child = spawn(process.execPath, ['--conditions=@svc/source', '--import', 'tsx', main], { env, cwd: appDir, stdio: ['ignore', 'ignore', 'inherit'] });
  const stop = async () => {
    const ended = await terminate(child);
    await rm(dataDir, { recursive: true, force: true });
    reportUncleanEnd(ended);
  };
  try {
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitHealthy(baseUrl, child);
    const controlUrl = `http://127.0.0.1:${controlPort}`;
    return { baseUrl, apiKey: await createKey(controlUrl), controlUrl, masterKey, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

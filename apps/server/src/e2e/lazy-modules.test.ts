import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { appDir, freePort, main, stopProcess, waitHealthy } from './gateway-process.js';

const recorder = fileURLToPath(new URL('./record-modules.ts', import.meta.url));

/**
 * Packages the shipped defaults never use on the main thread, each loaded on first use or when
 * configured: PostgreSQL's driver (DATABASE_URL), drizzle-orm (the embedded store queries and
 * migrates on its own thread; `@svc/db`'s index loads no repository), the backup archive's tar reader, Bedrock's signing,
 * OpenTelemetry's core (tracing off without an endpoint), `ws` (the first realtime upgrade) and
 * the multipart parser (the first upload). docs/operations.md "Memory budget". PGlite itself is
 * not on the list: run from the sources, as here, the gateway prepares its data directory in
 * process (the built one does it in a child process, and its main thread then holds no PGlite).
 */
const lazy: ReadonlyArray<[string, RegExp]> = [
  ['postgres', /\/node_modules\/postgres\//],
  // The query builder too: the repositories run on the store thread (or behind DATABASE_URL's driver).
  ['drizzle-orm', /\/node_modules\/drizzle-orm\//],
  ['tar-stream', /\/node_modules\/(tar-stream|streamx|fast-fifo|b4a|text-decoder)\//],
  ['@smithy', /\/node_modules\/@smithy\//],
  ['@opentelemetry/core', /\/node_modules\/@opentelemetry\/(core|semantic-conventions)\//],
  ['ws', /\/node_modules\/ws\//],
  ['@fastify/busboy', /\/node_modules\/@fastify\/busboy\//],
];

/** Resolves once `url/ready` answers 200 (after /health: the encoder and the store are up). */
async function waitReady(url: string, child: ChildProcess): Promise<void> {
  await waitHealthy(url, child, 900);
  for (let i = 0; i < 600; i++) {
    if ((await fetch(`${url}/ready`)).ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('gateway did not become ready');
}

/** Asks the child for its record and reads it: the main thread's modules, one URL or path a line. */
async function recordedModules(child: ChildProcess, record: string): Promise<string[]> {
  child.kill('SIGUSR2');
  for (let i = 0; i < 100 && !existsSync(record); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  return (await readFile(record, 'utf8')).split('\n');
}

describe('the main thread of a gateway on the shipped defaults', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('loads none of the packages only other configurations or a first use need', async () => {
    const [dataDir, recordDir] = [await mkdtemp(join(tmpdir(), 'svc-lazy-')), await mkdtemp(join(tmpdir(), 'svc-lazy-record-'))];
    dirs.push(dataDir, recordDir);
    const record = join(recordDir, 'modules.txt');
    const port = await freePort();
    // Nothing set but where to listen and store: `pnpm start`'s MiniLM encoder, embedded store, mock provider.
    const env = { PATH: process.env.PATH, PORT: String(port), CONTROL_PORT: String(await freePort()), HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, LOG_LEVEL: 'error', SVC_MODULE_RECORD: record };
    const child = spawn(process.execPath, ['--conditions=@svc/source', '--import', 'tsx', '--import', recorder, main], { env, cwd: appDir, stdio: ['ignore', 'ignore', 'inherit'] });
    try {
      await waitReady(`http://127.0.0.1:${port}`, child);
      const modules = await recordedModules(child, record);
      // The record works: the apps' own framework is in it.
      expect(modules.some((module) => /\/node_modules\/hono\//.test(module))).toBe(true);
      const loaded = lazy.filter(([, pattern]) => modules.some((module) => pattern.test(module))).map(([name]) => name);
      expect(loaded).toEqual([]);
    } finally {
      await stopProcess(child, 'SIGTERM');
    }
  }, 120_000);
});

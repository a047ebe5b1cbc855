import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import type { MigrateTarget } from '../migrate.js';
import type { PrepareNote } from './prepare-data-dir.js';
import { StoreError, type StoreErrorReason } from './store-error.js';

const prepareScript = fileURLToPath(new URL('./pglite-prepare.js', import.meta.url));

/** Where a data directory's PGlite files are, and where its migrations come from. */
export interface ApartSettings {
  dataDir: string;
  pgliteDir: string;
  migrations: MigrateTarget;
}

/**
 * `prepareDataDir` in this process, creating a new directory's files here. PGlite and the
 * upgrade's code are imported when it runs: the gateway's main thread, which prepares in a child
 * process and serves the store from a thread of its own, never holds them.
 */
export async function prepareInProcess(settings: ApartSettings): Promise<PrepareNote | undefined> {
  const [{ prepareDataDir }, { openPglite }] = await Promise.all([import('./prepare-data-dir.js'), import('../pglite-start.js')]);
  return prepareDataDir({ ...settings, initialise: async (dir) => (await openPglite(dir)).close() });
}

const ResultSchema = v.object({
  note: v.optional(v.nullable(v.object({ level: v.picklist(['info', 'warn']), message: v.string() }))),
  error: v.optional(v.object({ reason: v.string(), message: v.string() })),
});

function parseResult(stdout: string): v.InferOutput<typeof ResultSchema> | undefined {
  try {
    const parsed = v.safeParse(ResultSchema, JSON.parse(stdout.trim().split('\n').at(-1) ?? ''));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Prepares the data directory (prepareDataDir: initdb of a new one, the upgrade of an earlier
 * release's) in a short-lived child process. initdb and an upgrade grow PGlite's WebAssembly
 * memory to hundreds of MB, which a process never gives back: done there, the gateway's own
 * peak stays at what the opened store needs. Without the built script (tests running the
 * sources) it runs in this process.
 *
 * @throws StoreError when the directory cannot be served as it is.
 */
export async function prepareDataDirApart(settings: ApartSettings): Promise<PrepareNote | undefined> {
  if (!existsSync(prepareScript)) return prepareInProcess(settings);
  const child = spawn(process.execPath, [prepareScript, JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  const result = parseResult(stdout);
  if (result?.error) throw new StoreError(result.error.reason as StoreErrorReason, result.error.message);
  if (code !== 0 || !result) throw new Error(`preparing the PGlite data directory failed (exit ${code}): ${stderr.trim().slice(-500)}`);
  return result.note ?? undefined;
}

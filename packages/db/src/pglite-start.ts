import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

/**
 * Server settings the embedded store starts with, after PGlite's own defaults. PGlite is one
 * backend in this process, and its buffers live in the process's WebAssembly memory: its
 * defaults (`shared_buffers=128MB`, `max_connections=100`) fill up under a steady stream of
 * ledger writes and stay resident (peak RSS 622 MB in issue 16's run). 16 MB of buffers holds
 * the working set of an embedded deployment (recent ledger pages and the small tables);
 * `max_connections` sizes the shared lock and process tables for the one backend there is.
 */
export const PGLITE_SETTINGS: readonly string[] = ['shared_buffers=16MB', 'max_connections=5'];

/** PGlite's start parameters with {@link PGLITE_SETTINGS} appended (`-c name=value` each). */
export function pgliteStartParams(): string[] {
  return [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])];
}

/** Opens PGlite on `dataDir` (a path, `memory://...`, or undefined for memory) with the settings above. */
export function openPglite(dataDir: string | undefined): Promise<PGlite> {
  return PGlite.create(dataDir, { startParams: pgliteStartParams() });
}

const initScript = fileURLToPath(new URL('./pglite-init.js', import.meta.url));

/**
 * Creates a new data directory (initdb) in a short-lived child process when `dataDir` holds
 * none yet. initdb grows PGlite's WebAssembly memory to ~600 MB, which a process never gives
 * back: done here, the gateway's own peak stays at what the opened store needs. Without the
 * built script (tests running the sources) the directory is created in process, as before.
 */
export async function initDataDirApart(dataDir: string): Promise<void> {
  if (existsSync(`${dataDir}/PG_VERSION`) || !existsSync(initScript)) return;
  const child = spawn(process.execPath, [initScript, dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`initialising the PGlite data directory failed (exit ${code}): ${stderr.trim().slice(-500)}`);
}

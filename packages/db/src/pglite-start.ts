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

/**
 * Opens PGlite on `dataDir` (a path, `memory://...`, or undefined for memory) with the settings
 * above, on `database` (PGlite's default, `postgres`, holds the gateway's tables).
 */
export function openPglite(dataDir: string | undefined, database?: string): Promise<PGlite> {
  return PGlite.create(dataDir, { startParams: pgliteStartParams(), ...(database ? { database } : {}) });
}

import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_BYTEA } from './pglite-bytea.js';

/**
 * Server settings the embedded store starts with, after PGlite's own defaults. PGlite is one
 * backend in this process, and its buffers live in the process's WebAssembly memory: its
 * defaults (`shared_buffers=128MB`, `max_connections=100`) fill up under a steady stream of
 * ledger writes and stay resident (peak RSS 622 MB in issue 16's run). PGlite touches the whole
 * buffer pool when it starts, so `shared_buffers` is resident from the first second, idle or
 * not: 8 MB (1,024 pages, `wal_buffers` 256 kB with it) holds the working set of an embedded
 * deployment (the ledger's last pages, the small tables), 8 MiB less than 16 MB at the same
 * ledger and report CPU (docs/operations.md "Memory budget"). It is read at each start and not
 * kept in the data directory, so directories written with other values open as before.
 * `max_connections` sizes the shared lock and process tables for the one backend there is.
 * `maintenance_work_mem` (64 MB by default) bounds what an index build of a migration sorts in
 * memory: WebAssembly memory once touched is never given back, so an upgrade over a large ledger
 * would keep up to 64 MB resident for good; 16 MB sorts a bigger index on disk instead.
 * `work_mem` (4 MB by default) bounds the same for a query's sorts and hash tables (twice it for
 * a hash): the traffic report over a large ledger touched ~18 MiB of it, kept for good; at 2 MB
 * ~10 MiB, the report as fast (1 MB: less still, but ~30% slower on its first run).
 */
export const PGLITE_SETTINGS: readonly string[] = ['shared_buffers=8MB', 'max_connections=5', 'maintenance_work_mem=16MB', 'work_mem=2MB'];

/** PGlite's start parameters with {@link PGLITE_SETTINGS} appended (`-c name=value` each). */
export function pgliteStartParams(): string[] {
  return [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])];
}

/**
 * Opens PGlite on `dataDir` (a path, `memory://...`, or undefined for memory) with the settings
 * above, on `database` (PGlite's default, `postgres`, holds the gateway's tables), with `bytea`
 * converted in native code ({@link PGLITE_BYTEA}).
 */
export function openPglite(dataDir: string | undefined, database?: string): Promise<PGlite> {
  compileOnOneTask();
  return PGlite.create(dataDir, { startParams: pgliteStartParams(), ...PGLITE_BYTEA, ...(database ? { database } : {}) });
}

/**
 * V8 compiles PGlite's WebAssembly (10 MB: Liftoff for every function, then TurboFan for the hot
 * ones) on as many background tasks as Node has platform threads (4), and each task's compile
 * zones are freed into its own thread's glibc arena, where they stay resident. On one task the
 * same code is compiled for the same CPU, and the store holds 20 to 40 MiB less (measured in a
 * process of its own: docs/operations.md "Memory budget"). The flag is the process's (V8 has no
 * other), read when a module compiles; nothing else in the gateway compiles WebAssembly of size.
 */
function compileOnOneTask(): void {
  setFlagsFromString('--wasm-num-compilation-tasks=1');
}

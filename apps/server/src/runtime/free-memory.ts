import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

/**
 * Gives glibc's free memory back to the system while the gateway is quiet: `malloc_trim(0)`.
 *
 * The start (the store's and the encoder's threads load, compile and free) and every burst of
 * traffic leave free chunks inside glibc's arenas; `MALLOC_TRIM_THRESHOLD_` (scripts/malloc.env)
 * returns only the top of an arena, `malloc_trim(0)` the free pages inside one too. Measured on
 * the shipped defaults (docs/operations.md, "Memory budget"): 16-22 MB of an idle gateway's RSS,
 * the same again after a burst of proxy traffic. Node has no call to it, so it goes through koffi
 * (a maintained FFI with prebuilt binaries: no compiler at install); the call takes well under a
 * millisecond: once a second after ready, then only after an interval in which the loop was quiet.
 */
export type MemoryTrimmer = { stop(): void };

/** Event-loop utilisation under which an interval counts as quiet. */
const QUIET_UTILISATION = 0.05;

/** How often the gateway looks whether the last interval was quiet. */
const TRIM_INTERVAL_MS = 15_000;

/** The first trim, this long after ready: once the GC at ready has swept and the threads settled. */
const FIRST_TRIM_MS = 1_000;

/** The gateway's trimmer (main.ts, once ready), or undefined where malloc_trim cannot be called. */
export function startTrimmingWhenQuiet(): MemoryTrimmer | undefined {
  const trim = loadMallocTrim();
  if (!trim) return undefined;
  setTimeout(trim, FIRST_TRIM_MS).unref();
  return trimWhenQuiet(trim, TRIM_INTERVAL_MS);
}

/**
 * `malloc_trim` of this process's libc, or undefined where there is none to call: not Linux, or
 * not glibc (musl has no `libc.so.6`, gcompat no `malloc_trim`: the load throws). Not asked of
 * `process.report`, whose report resolves every open socket's peer name, blocking, where DNS is slow.
 */
export function loadMallocTrim(): (() => void) | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
    return () => void trim(0);
  } catch {
    return undefined;
  }
}

/** Trims every `intervalMs` (the first after one interval) when the loop was quiet since the last look. */
export function trimWhenQuiet(trim: () => void, intervalMs: number): MemoryTrimmer {
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const quiet = performance.eventLoopUtilization(now, last).utilization < QUIET_UTILISATION;
    last = now;
    if (quiet) trim();
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

/**
 * Gives glibc's free memory back to the system: `malloc_trim(0)`, while the gateway is quiet and
 * whenever its RSS has grown by a step since the last trim.
 *
 * The start (the store's and the encoder's threads load, compile and free) and every burst of
 * traffic leave free chunks inside glibc's arenas; `MALLOC_TRIM_THRESHOLD_` (scripts/malloc.env)
 * returns only the top of an arena, `malloc_trim(0)` the free pages inside one too. Measured on
 * the shipped defaults (docs/operations.md, "Memory budget"): 16-22 MB of an idle gateway's RSS,
 * the same again after a burst of proxy traffic. Node has no call to it, so it goes through koffi
 * (a maintained FFI with prebuilt binaries: no compiler at install): once a second after ready,
 * then after an interval in which the loop was quiet, and under load once RSS has grown by
 * {@link GROWTH_STEP_BYTES} over its lowest since the last trim (the free chunks a load leaves would
 * otherwise stay until it stops, and the next phase's growth would stack on them). The call runs on
 * libuv's pool (koffi's `async`), not on the event loop: under proxy load one takes 0.4-2.4 ms and
 * the first after ready ~7 ms, a hold of the loop every few seconds when it ran there
 * (docs/benchmarks.md, "2026-12-07: what holds the loop for more than 5 ms"). glibc's trim locks
 * each arena as it walks it, so it is safe beside the other threads' mallocs.
 */
export type MemoryTrimmer = { stop(): void };

/** One `malloc_trim(0)`: true once glibc has returned, false if the call could not be made (never rejects). */
export type Trim = () => Promise<boolean>;

/** Event-loop utilisation under which an interval counts as quiet. */
const QUIET_UTILISATION = 0.05;

/** How often the gateway looks whether the last interval was quiet. */
const TRIM_INTERVAL_MS = 15_000;

/** The first trim, this long after ready: once the GC at ready has swept and the threads settled. */
const FIRST_TRIM_MS = 1_000;

/** How often RSS is read for the growth rule (one read of /proc/self/statm). */
const GROWTH_CHECK_MS = 1_000;

/** RSS growth over its lowest since the last trim that makes a trim under load. */
const GROWTH_STEP_BYTES = 16 * 1024 * 1024;

/** The gateway's trimmer (main.ts, once ready), or undefined where malloc_trim cannot be called. */
export function startMemoryTrimmer(): MemoryTrimmer | undefined {
  const trim = loadMallocTrim();
  if (!trim) return undefined;
  const first = setTimeout(() => void trim(), FIRST_TRIM_MS);
  first.unref();
  const quiet = trimWhenQuiet(trim, TRIM_INTERVAL_MS);
  const growth = trimOnGrowth({ trim, rss: () => process.memoryUsage.rss(), intervalMs: GROWTH_CHECK_MS, stepBytes: GROWTH_STEP_BYTES });
  return {
    stop: () => {
      clearTimeout(first);
      quiet.stop();
      growth.stop();
    },
  };
}

/**
 * `malloc_trim` of this process's libc, or undefined where there is none to call: not Linux, or
 * not glibc (musl has no `libc.so.6`, gcompat no `malloc_trim`: the load throws). Not asked of
 * `process.report`, whose report resolves every open socket's peer name, blocking, where DNS is slow.
 */
export function loadMallocTrim(): Trim | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
    return oneAtATime(() => new Promise<boolean>((resolve) => trim.async(0, (error: unknown) => resolve(!error))));
  } catch {
    return undefined;
  }
}

/**
 * `trim`, but a call while one is still running shares it instead of starting a second; a trim
 * that throws (koffi refuses a call when too many of its asynchronous calls run) answers false.
 */
export function oneAtATime(trim: Trim): Trim {
  let running: Promise<boolean> | undefined;
  return () => {
    running ??= settled(trim).finally(() => {
      running = undefined;
    });
    return running;
  };
}

/** `trim()`, with a throw or a rejection read as false. */
function settled(trim: Trim): Promise<boolean> {
  try {
    return trim().catch(() => false);
  } catch {
    return Promise.resolve(false);
  }
}

/** Trims every `intervalMs` (the first after one interval) when the loop was quiet since the last look. */
export function trimWhenQuiet(trim: Trim, intervalMs: number): MemoryTrimmer {
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const quiet = performance.eventLoopUtilization(now, last).utilization < QUIET_UTILISATION;
    last = now;
    if (quiet) void trim();
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** One look of the growth rule: the RSS read now, the lowest read since the last trim, the step. */
export type GrowthLook = { rssBytes: number; lowBytes: number; stepBytes: number };

/**
 * Whether to trim now, and the low mark to keep: a trim once RSS stands `stepBytes` above the
 * lowest read since the last trim (the caller then reads RSS again as the new low); otherwise the
 * low follows RSS down, so memory the GC gave back is not counted as room to grow into.
 */
export function growthDecision(look: GrowthLook): { trim: boolean; lowBytes: number } {
  if (look.rssBytes - look.lowBytes >= look.stepBytes) return { trim: true, lowBytes: look.rssBytes };
  return { trim: false, lowBytes: Math.min(look.lowBytes, look.rssBytes) };
}

/**
 * Reads RSS every `intervalMs` and trims when it grew by `stepBytes` over its lowest since the last
 * trim; what the trim left is read as the new low once it has returned, and no look is taken before.
 */
export function trimOnGrowth(settings: { trim: Trim; rss: () => number; intervalMs: number; stepBytes: number }): MemoryTrimmer {
  const { trim, rss, intervalMs, stepBytes } = settings;
  let lowBytes = rss();
  let trimming = false;
  const timer = setInterval(() => {
    if (trimming) return;
    const decision = growthDecision({ rssBytes: rss(), lowBytes, stepBytes });
    lowBytes = decision.lowBytes;
    if (!decision.trim) return;
    trimming = true;
    void trim().finally(() => {
      lowBytes = rss();
      trimming = false;
    });
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

import type { Session } from 'node:inspector';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection of the calling thread's heap, now (best effort: nothing happens if
 * the function cannot be had). The sentence encoder's thread calls it during its load, between
 * the weights and onnxruntime's copies; once ready the threads call {@link reduceMemory}, which
 * also gives back the pages this leaves committed. An idle thread allocates nothing, so V8 would
 * otherwise keep the start-up's dead objects resident until traffic had run for a while
 * (measured: 30 to 100 MiB of RSS for the encoder's load). Node has no API for it and refuses `--expose-gc` in a worker's `execArgv`;
 * the V8 flag set at run time exposes `gc` to contexts created afterwards. It is left on: turning
 * it off again races with another thread of the same process doing the same, whose context
 * would then lack `gc`.
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
  if (typeof gc === 'function') gc();
}

/**
 * A memory-reducing garbage collection of the calling thread's heap, now: what V8's memory reducer
 * does to an idle thread on its own only 8 s after the thread's last full GC at the earliest
 * (measured in the gateway: the main thread's 9-15 s after ready, the encoder's 8-15 s, the
 * store's 7-21 s, each not within 25 s in some runs), and {@link collectGarbage} does not. It compacts the old generation's
 * fragmented pages and shrinks the young generation the start grew (the main thread's 16 MiB),
 * giving their pages back: docs/operations.md "Memory budget". V8's `LowMemoryNotification`, at
 * least two full collections (measured at ready: 77-134 ms on the main thread, 20-84 on the encoder's, 51-190 on the store's); Node reaches it only
 * through the inspector's `HeapProfiler.collectGarbage`, which runs it as a task of this thread's
 * loop, so this resolves once it has run. Without an inspector (a Node built without one), a plain
 * collection. Never rejects.
 */
export async function reduceMemory(): Promise<void> {
  const session = await connectedSession();
  if (!session) return collectGarbage();
  await new Promise<void>((resolve) => {
    try {
      session.post('HeapProfiler.collectGarbage', () => resolve());
    } catch {
      collectGarbage();
      resolve();
    }
  });
  // Not from the callback: V8 calls it holding a lock that disconnecting takes (the thread hangs).
  setImmediate(() => session.disconnect());
}

/** An inspector session connected to this thread, or undefined where Node has no inspector. */
async function connectedSession(): Promise<Session | undefined> {
  try {
    const { Session: InspectorSession } = await import('node:inspector');
    const session = new InspectorSession();
    session.connect();
    return session;
  } catch {
    return undefined;
  }
}

/**
 * The V8 heap limits of the gateway's worker threads (the sentence encoder's, the embedded
 * store's): a young generation of 6 MiB (two 2 MiB semi-spaces and the new large-object space)
 * instead of V8's 48 MiB. Both threads hold little JavaScript (their weight is native memory:
 * onnxruntime's tensors, PGlite's WebAssembly), and each semi-space V8 grows stays resident:
 * docs/operations.md "Memory budget".
 */
export const WORKER_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 6 } as const;

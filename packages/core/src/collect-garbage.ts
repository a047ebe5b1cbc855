import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection of the calling thread's heap, now (best effort: nothing happens if
 * the function cannot be had). The gateway's threads call it once they are ready (the sentence
 * encoder's also during its load, the embedded store's after opening): an idle thread allocates
 * nothing, so V8 would otherwise keep the start-up's dead objects and its grown young
 * generation resident until traffic had run for a while (measured: 30 to 100 MiB of RSS for the
 * encoder's load). Node has no API for it and refuses `--expose-gc` in a worker's `execArgv`;
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
 * The V8 heap limits of the gateway's worker threads (the sentence encoder's, the embedded
 * store's): a young generation of 6 MiB (two 2 MiB semi-spaces and the new large-object space)
 * instead of V8's 48 MiB. Both threads hold little JavaScript (their weight is native memory:
 * onnxruntime's tensors, PGlite's WebAssembly), and each semi-space V8 grows stays resident:
 * docs/operations.md "Memory budget".
 */
export const WORKER_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 6 } as const;

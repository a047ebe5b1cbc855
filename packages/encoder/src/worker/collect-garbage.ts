import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection of this thread's heap, now (best effort: nothing happens if the
 * function cannot be had). The inference thread calls it during and after the load: an idle
 * thread allocates nothing, so V8 would otherwise keep the load's dead buffers resident until
 * embeddings had run for a while (measured: 30 to 100 MiB of RSS). Node has no API for it and
 * refuses `--expose-gc` in a worker's `execArgv`; the V8 flag set at run time exposes `gc` to
 * contexts created afterwards. It is left on: turning it off again races with another encoder's
 * thread of the same process loading at the same time, whose context would then lack `gc`.
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
  if (typeof gc === 'function') gc();
}

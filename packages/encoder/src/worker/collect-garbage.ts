import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection of this thread's heap, now. The inference thread calls it once,
 * after the load: an idle thread allocates nothing, so V8 would otherwise keep the load's dead
 * buffers resident until embeddings had run for a while (measured: 30 to 100 MiB of RSS). Node
 * has no API for it and refuses `--expose-gc` in a worker's `execArgv`; the V8 flag set at run
 * time exposes `gc` to contexts created while it is on, so it is on for one new context only.
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  gc();
}

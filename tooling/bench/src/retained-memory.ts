import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/** A full garbage collection, made available once at run time (`--expose-gc` for a fresh context). */
function fullGc(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

/** Bytes this process's JavaScript holds after a full collection: the V8 heap in use and array buffers (vectors live there). */
export function retainedBytes(): number {
  fullGc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

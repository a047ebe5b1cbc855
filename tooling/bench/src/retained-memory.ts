import { setFlagsFromString } from 'node:v8';
import { simdMemoryBytes } from '@svc/semantic';
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

/**
 * Bytes this process's JavaScript holds after a full collection: the V8 heap in use, array
 * buffers and the semantic stores' WebAssembly memory (large partitions' vectors live there).
 */
export function retainedBytes(): number {
  fullGc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers + simdMemoryBytes();
}

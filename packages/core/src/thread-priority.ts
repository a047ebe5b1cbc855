import { getPriority, setPriority } from 'node:os';

/**
 * Lowers the CPU priority of the calling thread only: on Linux a nice value belongs to a thread,
 * and `setpriority(PRIO_PROCESS, 0, n)` (what `os.setPriority(n)` calls) sets the caller's. So a
 * worker thread (the sentence encoder's, the embedded store's) yields the core to the gateway's
 * event loop whenever both want it, and threads it starts later (onnxruntime's) inherit the value. Elsewhere (macOS, Windows) the call would
 * lower the whole process, so it is not made. Returns the nice value in effect, or undefined when
 * it was not set (the thread then runs at normal priority, still correct).
 */
export function lowerThreadPriority(niceness: number, platform: NodeJS.Platform = process.platform): number | undefined {
  if (platform !== 'linux') return undefined;
  try {
    if (niceness !== 0) setPriority(niceness);
    return getPriority();
  } catch {
    return undefined;
  }
}

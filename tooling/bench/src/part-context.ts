import type { BenchOptions } from './args.js';
import type { ChildSet } from './children.js';

/** What a part that runs after the main targets (fallback, answer cache) gets from the main run. */
export interface PartContext {
  options: BenchOptions;
  root: string;
  children: ChildSet;
  mockUrl: string;
  mockPid: number;
  /** CPUs for the gateway process (`taskset -c`), or undefined when not pinned. */
  cpus: string | undefined;
  /** Progress lines (stderr). */
  log: (line: string) => void;
}

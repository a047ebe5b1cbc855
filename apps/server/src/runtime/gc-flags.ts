import { execFileSync } from 'node:child_process';

/** Where the gateway's V8 garbage-collection flags are decided, relative to the repository. */
export const GC_FLAGS_SCRIPT = 'scripts/gc-flags.sh';

/**
 * node's command-line flags for the gateway's garbage collection on `cpus` (a `taskset -c` list;
 * default: the CPUs this process may use) and this cgroup's CPU quota (or the quota in
 * `quotaFile`, cgroup v2's `cpu.max` form; a missing file: none), as `scripts/gc-flags.sh` prints
 * them: what `scripts/start.sh` (so `pnpm start`) passes, and what the bench's shipped-defaults svc
 * runs with. They cannot be set once node runs (V8 aborts when `--single-threaded-gc` is set at run time).
 */
export function readGcFlags(root: string, cpus?: string, quotaFile?: string): string[] {
  const script = quotaFile === undefined ? [GC_FLAGS_SCRIPT] : [GC_FLAGS_SCRIPT, quotaFile];
  const [command, args] = cpus === undefined ? ['sh', script] : ['taskset', ['-c', cpus, 'sh', ...script]];
  return execFileSync(command, args, { cwd: root, encoding: 'utf8' }).split(/\s+/).filter((flag) => flag !== '');
}

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg, release } from 'node:os';

/** Where and when the bench ran. */
export interface MachineInfo {
  date: string;
  nproc: number;
  cpuModel: string;
  node: string;
  kernel: string;
  loadAvgAtStart: number[];
  gitCommit: string | undefined;
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    return match?.[1]?.trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function gitCommit(root: string): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** Describe this machine (CPU count and model, Node, kernel, load) and the repo commit. */
export function machineInfo(root: string): MachineInfo {
  return {
    date: new Date().toISOString(),
    nproc: availableParallelism(),
    cpuModel: cpuModel(),
    node: process.version,
    kernel: release(),
    loadAvgAtStart: loadavg().map((v) => Math.round(v * 100) / 100),
    gitCommit: gitCommit(root),
  };
}

/** True when `taskset` can be run (util-linux), so processes can be pinned to CPUs. */
export function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CPU time and memory of one process, read from /proc. */
export interface ProcSnapshot {
  /** User + system CPU time in milliseconds (all threads). */
  cpuMs: number;
  /** Resident set size in KiB (VmRSS). */
  rssKb: number;
  /** Peak resident set size in KiB (VmHWM). */
  peakRssKb: number;
}

/**
 * utime + stime clock ticks from the text of `/proc/<pid>/stat`. The command name (field 2) may
 * contain spaces and parentheses, so fields are counted after the last `)`.
 */
export function parseStatTicks(stat: string): number {
  const end = stat.lastIndexOf(')');
  if (end < 0) throw new Error('unexpected /proc/<pid>/stat format: no ")"');
  // After ")": field 3 (state) is index 0, so utime (14) is index 11 and stime (15) index 12.
  const fields = stat.slice(end + 2).trim().split(/\s+/);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) {
    throw new Error('unexpected /proc/<pid>/stat format: utime/stime not numeric');
  }
  return utime + stime;
}

/** A `kB` field (VmRSS, VmHWM, ...) of `/proc/<pid>/status`; 0 when absent. */
export function parseStatusKb(status: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
  return match ? Number(match[1]) : 0;
}

let cachedTicks: number | undefined;

/** Clock ticks per second (`getconf CLK_TCK`), 100 when getconf is unavailable. */
export function clockTicksPerSecond(): number {
  if (cachedTicks !== undefined) return cachedTicks;
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    cachedTicks = Number.isFinite(value) && value > 0 ? value : 100;
  } catch {
    cachedTicks = 100;
  }
  return cachedTicks;
}

/** Read CPU time and RSS of `pid` from /proc (Linux only). */
export function readProc(pid: number): ProcSnapshot {
  const ticks = parseStatTicks(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return {
    cpuMs: (ticks * 1000) / clockTicksPerSecond(),
    rssKb: parseStatusKb(status, 'VmRSS'),
    peakRssKb: parseStatusKb(status, 'VmHWM'),
  };
}

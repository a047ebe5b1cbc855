import { readFileSync } from 'node:fs';
import { parseStatusKb } from './proc-stats.js';

/** One gateway process of the run: RSS when idle after start, and its peak over its whole life. */
export interface ProcessMemory {
  /** What it is, in words (`svc`, `floor`, `portkey`, `svc (answer-cache part)`...). */
  label: string;
  /** True when it ran svc's shipped defaults (what `pnpm start` runs). */
  shippedDefaults: boolean;
  /** True when it opened a data directory filled before it started (the report loop's ledger). */
  seeded?: boolean;
  pid: number;
  /** `performance.now()` of the bench when it was started (report order). */
  startedAt: number;
  /** VmRSS once ready and left alone for the settle time, nothing sent, MiB. */
  idleRssMb: number;
  /** VmHWM read just before it was stopped (or at the end of the run), MiB. */
  peakRssMb: number;
  /** VmRSS at that moment, MiB. */
  lastRssMb: number;
}

/** VmRSS and VmHWM of a process, KiB; undefined when it is gone. */
export function readProcessMemory(pid: number): { rssKb: number; peakRssKb: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return { rssKb: parseStatusKb(status, 'VmRSS'), peakRssKb: parseStatusKb(status, 'VmHWM') };
  } catch {
    return undefined;
  }
}

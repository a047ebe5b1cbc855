import { describe, expect, it } from 'vitest';
import { parseStatTicks, parseStatusKb, readProc } from './proc-stats.js';

describe('parseStatTicks', () => {
  it('adds utime and stime (fields 14 and 15)', () => {
    const stat =
      '4242 (node) S 1 4242 4242 0 -1 4194560 2000 0 0 0 731 129 0 0 20 0 11 0 9000 1200000000 20000 18446744073709551615';
    expect(parseStatTicks(stat)).toBe(860);
  });

  it('counts fields after the last ")" so a command name with spaces and parens parses', () => {
    const stat = '7 (my (odd) name) R 1 7 7 0 -1 0 0 0 0 0 5 6 0 0 20 0 1 0 1 1 1';
    expect(parseStatTicks(stat)).toBe(11);
  });

  it('throws on text that is not a stat line', () => {
    expect(() => parseStatTicks('garbage')).toThrow(/format/);
  });
});

describe('parseStatusKb', () => {
  const status = 'Name:\tnode\nVmPeak:\t 1200 kB\nVmHWM:\t   90500 kB\nVmRSS:\t   81234 kB\nThreads:\t11\n';
  it('reads kB fields by name', () => {
    expect(parseStatusKb(status, 'VmRSS')).toBe(81234);
    expect(parseStatusKb(status, 'VmHWM')).toBe(90500);
  });
  it('gives 0 for a missing field', () => {
    expect(parseStatusKb(status, 'VmSwap')).toBe(0);
  });
});

describe('readProc', () => {
  it('reads this process: CPU time grows with work and RSS is plausible', () => {
    const before = readProc(process.pid);
    let x = 0;
    const until = performance.now() + 60;
    while (performance.now() < until) x += Math.sqrt(x + 1);
    const after = readProc(process.pid);
    expect(x).toBeGreaterThan(0);
    expect(after.cpuMs).toBeGreaterThan(before.cpuMs);
    expect(after.rssKb).toBeGreaterThan(10_000);
    expect(after.peakRssKb).toBeGreaterThanOrEqual(after.rssKb);
  });
});

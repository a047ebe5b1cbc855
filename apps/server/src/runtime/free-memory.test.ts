import { describe, expect, it, vi } from 'vitest';
import { growthDecision, loadMallocTrim, oneAtATime, trimOnGrowth, trimWhenQuiet } from './free-memory.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A trim that only runs `count` and is done at once. */
const countingTrim = (count: () => void) => () => {
  count();
  return Promise.resolve(true);
};

function holdLoop(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe('trimming free memory while quiet', () => {
  // glibc's runtime version is in the report's header only on glibc (not musl, not macOS).
  const glibc = typeof (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime === 'string';

  it.runIf(glibc)("calls glibc's malloc_trim on this machine (Linux with glibc) and settles once it returned", async () => {
    const trim = loadMallocTrim();
    expect(trim).toBeTypeOf('function');
    await expect(trim?.()).resolves.toBe(true);
  });

  it('answers false for a trim that throws, instead of rejecting', async () => {
    const trim = oneAtATime(() => {
      throw new Error('Too many asynchronous calls are running');
    });
    await expect(trim()).resolves.toBe(false);
  });

  it('shares a trim still running instead of starting a second one', async () => {
    let calls = 0;
    let finish = () => {};
    const trim = oneAtATime(() => {
      calls++;
      return new Promise<boolean>((resolve) => {
        finish = () => resolve(true);
      });
    });
    const first = trim();
    expect(trim()).toBe(first);
    finish();
    await first;
    void trim();
    expect(calls).toBe(2);
  });

  it('trims after an interval in which the event loop was idle', async () => {
    let trims = 0;
    const trimmer = trimWhenQuiet(countingTrim(() => trims++), 40);
    await sleep(150);
    trimmer.stop();
    expect(trims).toBeGreaterThanOrEqual(1);
  });

  it('does not trim while the event loop is busy, and stops when told', async () => {
    let trims = 0;
    const trimmer = trimWhenQuiet(countingTrim(() => trims++), 40);
    for (let i = 0; i < 6; i++) {
      holdLoop(30);
      await sleep(1);
    }
    expect(trims).toBe(0);
    trimmer.stop();
    await sleep(120);
    expect(trims).toBe(0);
  });
});

describe('trimming when RSS grew under load', () => {
  const MiB = 1024 * 1024;

  it('trims once RSS stands a step above its lowest since the last trim', () => {
    expect(growthDecision({ rssBytes: 300 * MiB, lowBytes: 284 * MiB, stepBytes: 16 * MiB })).toEqual({ trim: true, lowBytes: 300 * MiB });
    expect(growthDecision({ rssBytes: 299 * MiB, lowBytes: 284 * MiB, stepBytes: 16 * MiB })).toEqual({ trim: false, lowBytes: 284 * MiB });
  });

  it('follows RSS down, so memory the GC gave back is not room to grow into', () => {
    expect(growthDecision({ rssBytes: 270 * MiB, lowBytes: 284 * MiB, stepBytes: 16 * MiB })).toEqual({ trim: false, lowBytes: 270 * MiB });
  });

  it('trims on the step from the lowest reading, then measures from what the trim left', async () => {
    // RSS readings, one a tick: down to 250, up by 16 (a trim; the trim leaves 255), up by 10, by 16 more.
    const readings = [260, 250, 258, 266, 255, 265, 271, 268];
    let i = 0;
    const trims: number[] = [];
    const rss = () => (readings[Math.min(i++, readings.length - 1)] ?? 0) * MiB;
    const trimmer = trimOnGrowth({ trim: countingTrim(() => trims.push(i)), rss, intervalMs: 5, stepBytes: 16 * MiB });
    await vi.waitFor(() => expect(i).toBeGreaterThanOrEqual(readings.length + 1), { timeout: 2_000 });
    trimmer.stop();
    // The first read (260) is the start's low; 266 - 250 trims (after the fourth read), then 255 is
    // read as the new low, and 271 - 255 trims again.
    expect(trims).toEqual([4, 7]);
  });

  it('stops when told', async () => {
    let trims = 0;
    let rss = 100 * MiB;
    const trimmer = trimOnGrowth({ trim: countingTrim(() => trims++), rss: () => (rss += 20 * MiB), intervalMs: 5, stepBytes: 16 * MiB });
    trimmer.stop();
    await sleep(40);
    expect(trims).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { loadMallocTrim, trimWhenQuiet } from './free-memory.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function holdLoop(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe('trimming free memory while quiet', () => {
  // glibc's runtime version is in the report's header only on glibc (not musl, not macOS).
  const glibc = typeof (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime === 'string';

  it.runIf(glibc)("calls glibc's malloc_trim on this machine (Linux with glibc)", () => {
    const trim = loadMallocTrim();
    expect(trim).toBeTypeOf('function');
    expect(() => trim?.()).not.toThrow();
  });

  it('trims after an interval in which the event loop was idle', async () => {
    let trims = 0;
    const trimmer = trimWhenQuiet(() => trims++, 40);
    await sleep(150);
    trimmer.stop();
    expect(trims).toBeGreaterThanOrEqual(1);
  });

  it('does not trim while the event loop is busy, and stops when told', async () => {
    let trims = 0;
    const trimmer = trimWhenQuiet(() => trims++, 40);
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

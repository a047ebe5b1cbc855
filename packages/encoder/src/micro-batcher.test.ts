import { describe, expect, it } from 'vitest';
import { createMicroBatcher } from './micro-batcher.js';

function recording(maxBatch: number, windowMs = 1) {
  const batches: number[][] = [];
  let release: () => void = () => {};
  let gate: Promise<void> = Promise.resolve();
  const batcher = createMicroBatcher<number, number>({
    maxBatch,
    windowMs,
    run: async (items) => {
      batches.push(items);
      await gate;
      return items.map((x) => x * 10);
    },
  });
  return {
    batcher,
    batches,
    hold() {
      gate = new Promise((resolve) => {
        release = resolve;
      });
    },
    release: () => release(),
  };
}

describe('micro-batcher', () => {
  it('sends items of one tick together and answers each with its own result', async () => {
    const { batcher, batches } = recording(8);
    expect(await Promise.all([1, 2, 3].map((x) => batcher.add(x)))).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('never exceeds maxBatch, and runs one batch at a time', async () => {
    const r = recording(2);
    r.hold();
    const first = Promise.all([1, 2, 3].map((x) => r.batcher.add(x)));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = Promise.all([4, 5].map((x) => r.batcher.add(x)));
    expect(r.batches).toEqual([[1, 2]]);
    r.release();
    expect(await first).toEqual([10, 20, 30]);
    expect(await later).toEqual([40, 50]);
    // What queued while the first batch ran left together, up to maxBatch.
    expect(r.batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('rejects the items of a failed batch, and the next batch still runs', async () => {
    let calls = 0;
    const batcher = createMicroBatcher<number, number>({
      maxBatch: 4,
      windowMs: 0,
      run: async (items) => {
        if (calls++ === 0) throw new Error('boom');
        return items;
      },
    });
    await expect(batcher.add(1)).rejects.toThrow('boom');
    expect(await batcher.add(2)).toBe(2);
  });

  it('with a window of 0, batches what arrives before the event loop turns and sets no timer', async () => {
    const r = recording(8, 0);
    const started = performance.now();
    const all = Promise.all([r.batcher.add(1), r.batcher.add(2)]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.batches).toEqual([[1, 2]]);
    await all;
    expect(performance.now() - started).toBeLessThan(50);
  });
});

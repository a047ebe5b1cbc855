import { setTimeout as sleep } from 'node:timers/promises';
import { RequestAbort } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { chunk, mapConcurrent } from './map-concurrent.js';

describe('mapConcurrent', () => {
  it('keeps item order whatever order calls finish in, and never exceeds the cap', async () => {
    let inFlight = 0;
    let peak = 0;
    const items = [30, 5, 20, 1, 10, 2];
    const results = await mapConcurrent(items, 3, undefined, async (ms) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await sleep(ms);
      inFlight--;
      return ms * 2;
    });
    expect(results).toEqual([60, 10, 40, 2, 20, 4]);
    expect(peak).toBe(3);
  });

  it('rejects with the first failure, aborts the calls in flight and starts no more', async () => {
    const started: number[] = [];
    const aborted: number[] = [];
    const failure = new Error('first');
    const run = mapConcurrent([0, 1, 2, 3, 4], 2, undefined, async (item, signal) => {
      started.push(item);
      if (item === 0) throw failure;
      await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
      aborted.push(item);
      throw new Error('aborted');
    });
    await expect(run).rejects.toBe(failure);
    expect(started).toEqual([0, 1]);
    expect(aborted).toEqual([1]);
  });

  it.each([
    ['AbortController', () => new AbortController()],
    ['RequestAbort', () => new RequestAbort()],
  ] as const)("follows the caller's signal (%s)", async (_kind, make) => {
    const caller = make();
    const run = mapConcurrent([1, 2], 2, caller.signal, (_item, signal) => new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(new Error('stopped')))));
    caller.abort();
    await expect(run).rejects.toThrow('stopped');
  });

  it('chunks into slices of at most the size', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 3)).toEqual([]);
  });
});

import { getHeapSpaceStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectGarbage, reduceMemory } from './collect-garbage.js';

/** The young generation's semi-space capacity now, bytes. */
function newSpaceSize(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/** Allocates objects that survive a few scavenges, so that V8 grows the young generation (as the gateway's start does). */
function growYoungGeneration(): void {
  let kept: { index: number; text: string }[] = [];
  for (let round = 0; round < 4 && newSpaceSize() < 4 * 1024 * 1024; round++) {
    for (let index = 0; index < 300_000; index++) kept.push({ index, text: `entry ${index}` });
    kept = kept.slice(-150_000);
  }
}

describe('collectGarbage', () => {
  it('leaves gc reachable for another thread (encoder, store) collecting at the same time', () => {
    collectGarbage();
    // Another thread's call, made while this one had finished: it must still find gc.
    expect(runInNewContext('typeof gc')).toBe('function');
    expect(() => collectGarbage()).not.toThrow();
  });
});

describe('reduceMemory', () => {
  it('shrinks the young generation that a plain collection leaves grown', async () => {
    growYoungGeneration();
    const grown = newSpaceSize();
    expect(grown).toBeGreaterThanOrEqual(4 * 1024 * 1024);
    collectGarbage();
    expect(newSpaceSize()).toBe(grown);
    await reduceMemory();
    expect(newSpaceSize()).toBeLessThan(grown / 2);
  });

  it('can run again, and in turn with a plain collection', async () => {
    await reduceMemory();
    collectGarbage();
    await expect(reduceMemory()).resolves.toBeUndefined();
  });
});

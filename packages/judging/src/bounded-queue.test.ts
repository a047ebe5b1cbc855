import { describe, expect, it } from 'vitest';
import { BoundedQueue } from './bounded-queue.js';

describe('BoundedQueue', () => {
  it('starts nothing before the current task ends, runs at most `concurrency` jobs, and drops (counted) past its capacity', async () => {
    const errors: unknown[] = [];
    const queue = new BoundedQueue({ capacity: 2, concurrency: 1, onError: (error) => errors.push(error) });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ran: number[] = [];
    expect(queue.offer(async () => { ran.push(1); await gate; })).toBe(true);
    expect(queue.offer(async () => { ran.push(2); throw new Error('boom'); })).toBe(true);
    // Both wait (nothing ran synchronously): a third does not fit.
    expect(ran).toEqual([]);
    expect(queue.offer(async () => { ran.push(3); })).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual([1]);
    release();
    await queue.idle();
    expect(ran).toEqual([1, 2]);
    expect(queue.stats()).toEqual({ queued: 2, dropped: 1, done: 2, failed: 1 });
    expect(errors).toHaveLength(1);
  });
});

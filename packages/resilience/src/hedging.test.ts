import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HedgeStats, hedge } from './hedging.js';

/** An attempt that settles after `ms` (fake time) unless aborted, and remembers its abort. */
function attempt<T>(ms: number, outcome: { value: T } | { error: Error }) {
  const state = { started: false, aborted: false };
  const run = (signal: AbortSignal): Promise<T> => {
    state.started = true;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => ('value' in outcome ? resolve(outcome.value) : reject(outcome.error)), ms);
      signal.addEventListener('abort', () => {
        state.aborted = true;
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
  };
  return { run, state };
}

describe('hedge', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('does not start the secondary when the primary answers before the delay', async () => {
    const stats = new HedgeStats();
    const primary = attempt(50, { value: 'p' });
    const secondary = attempt(10, { value: 's' });
    const result = hedge(primary.run, secondary.run, { delayMs: 100, stats });
    await vi.advanceTimersByTimeAsync(50);
    await expect(result).resolves.toEqual({ value: 'p', winner: 'primary', secondaryStarted: false });
    await vi.advanceTimersByTimeAsync(200);
    expect(secondary.state.started).toBe(false);
    expect(stats.snapshot()).toEqual({ requests: 1, fired: 0, secondaryWins: 0, cancelled: 0, bothFailed: 0 });
  });

  it('starts the secondary after the delay, takes its answer and aborts the slow primary', async () => {
    const stats = new HedgeStats();
    const primary = attempt(1000, { value: 'p' });
    const secondary = attempt(50, { value: 's' });
    const result = hedge(primary.run, secondary.run, { delayMs: 100, stats });
    await vi.advanceTimersByTimeAsync(99);
    expect(secondary.state.started).toBe(false);
    await vi.advanceTimersByTimeAsync(51);
    await expect(result).resolves.toEqual({ value: 's', winner: 'secondary', secondaryStarted: true });
    expect(primary.state.aborted).toBe(true);
    expect(stats.snapshot()).toEqual({ requests: 1, fired: 1, secondaryWins: 1, cancelled: 1, bothFailed: 0 });
  });

  it('keeps the primary when it answers first after the hedge fired, aborting the secondary', async () => {
    const primary = attempt(150, { value: 'p' });
    const secondary = attempt(500, { value: 's' });
    const result = hedge(primary.run, secondary.run, { delayMs: 100 });
    await vi.advanceTimersByTimeAsync(150);
    await expect(result).resolves.toMatchObject({ value: 'p', winner: 'primary', secondaryStarted: true });
    expect(secondary.state.aborted).toBe(true);
  });

  it('waits for the other attempt when one fails, and rejects with the primary error when both fail', async () => {
    const stats = new HedgeStats();
    const primaryError = new Error('primary down');
    const primary = attempt(300, { error: primaryError });
    const secondary = attempt(50, { error: new Error('secondary down') });
    const result = hedge(primary.run, secondary.run, { delayMs: 100, stats });
    const settled = vi.fn();
    result.catch(settled);
    await vi.advanceTimersByTimeAsync(200);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    await expect(result).rejects.toBe(primaryError);
    expect(stats.bothFailed).toBe(1);
  });

  it('starts the secondary at once when the primary fails before the delay', async () => {
    const primary = attempt(10, { error: new Error('503') });
    const secondary = attempt(20, { value: 's' });
    const result = hedge(primary.run, secondary.run, { delayMs: 1000 });
    await vi.advanceTimersByTimeAsync(30);
    await expect(result).resolves.toEqual({ value: 's', winner: 'secondary', secondaryStarted: true });
  });

  it('rejects at once on a primary error that another candidate cannot fix', async () => {
    const bad = new Error('invalid request');
    const primary = attempt(150, { error: bad });
    const secondary = attempt(500, { value: 's' });
    const result = hedge(primary.run, secondary.run, { delayMs: 100, fallBackOn: (error) => error !== bad });
    result.catch(() => {});
    await vi.advanceTimersByTimeAsync(150);
    await expect(result).rejects.toBe(bad);
    expect(secondary.state.aborted).toBe(true);
  });

  it('aborts both attempts when the caller aborts', async () => {
    const stats = new HedgeStats();
    const controller = new AbortController();
    const primary = attempt(1000, { value: 'p' });
    const secondary = attempt(1000, { value: 's' });
    const result = hedge(primary.run, secondary.run, { delayMs: 100, signal: controller.signal, stats });
    result.catch(() => {});
    await vi.advanceTimersByTimeAsync(200);
    const reason = new Error('client went away');
    controller.abort(reason);
    await expect(result).rejects.toBe(reason);
    expect([primary.state.aborted, secondary.state.aborted]).toEqual([true, true]);
    expect(stats.cancelled).toBe(2);
  });

  it('never starts anything when the signal is already aborted', async () => {
    const primary = attempt(10, { value: 'p' });
    await expect(hedge(primary.run, primary.run, { delayMs: 0, signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
    expect(primary.state.started).toBe(false);
  });

  it('disposes of a success that arrives after the race was decided', async () => {
    const disposed: string[] = [];
    // The primary ignores its abort signal, like an upstream whose answer was already on the way.
    const result = hedge(
      () => new Promise<string>((resolve) => setTimeout(() => resolve('loser'), 20)),
      () => Promise.resolve('winner'),
      { delayMs: 0, dispose: (value) => disposed.push(value) },
    );
    await vi.advanceTimersByTimeAsync(0);
    await expect(result).resolves.toEqual({ value: 'winner', winner: 'secondary', secondaryStarted: true });
    expect(disposed).toEqual([]);
    await vi.advanceTimersByTimeAsync(20);
    expect(disposed).toEqual(['loser']);
  });
});

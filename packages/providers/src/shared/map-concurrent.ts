import { setMaxListeners } from 'node:events';
import { nodeSignal } from '@svc/core';

/**
 * Runs `run` over `items` with at most `concurrency` calls in flight and resolves with the
 * results in item order. The first failure aborts the calls still running (through the signal
 * each call receives, which also follows `signal`) and rejects with that first failure.
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  concurrency: number,
  signal: AbortSignal | undefined,
  run: (item: T, signal: AbortSignal | undefined) => Promise<R>,
): Promise<R[]> {
  if (items.length === 1) return [await run(items[0]!, signal)];
  const controller = new AbortController();
  const shared = signal === undefined ? controller.signal : AbortSignal.any([nodeSignal(signal), controller.signal]);
  // Each call in flight listens on `shared` until its response body closes, a little after the
  // call resolves; the count is bounded by the concurrency, not a leak, so silence the warning.
  setMaxListeners(Math.max(10, concurrency * 4), shared);
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await run(items[index]!, shared);
      } catch (error) {
        if (failure === undefined) {
          failure = { error };
          controller.abort();
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}

/** `items` in consecutive slices of at most `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size));
  return out;
}

/** Tuning of {@link createMicroBatcher}. */
export interface MicroBatcherSettings<I, O> {
  /** Most items per call of `run`. */
  maxBatch: number;
  /** How long the first item of a batch waits for company, in ms (0: only until the event loop turns, no timer). */
  windowMs: number;
  /** Processes one batch; returns one result per item, in order. */
  run: (items: I[]) => Promise<O[]>;
}

/** Coalesces single items into batches for a worker that does one batch at a time. */
export interface MicroBatcher<I, O> {
  add(item: I): Promise<O>;
}

interface Queued<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (reason: unknown) => void;
}

/**
 * Items that arrive within `windowMs` of the first (or fill `maxBatch`) go out together. At
 * most one batch runs at a time; what arrives meanwhile waits and leaves as soon as it ends,
 * so batches grow with load instead of queueing behind one another.
 */
export function createMicroBatcher<I, O>(settings: MicroBatcherSettings<I, O>): MicroBatcher<I, O> {
  const queue: Queued<I, O>[] = [];
  let running = false;
  let timer: NodeJS.Timeout | NodeJS.Immediate | undefined;

  async function runBatch(batch: Queued<I, O>[]): Promise<void> {
    try {
      const results = await settings.run(batch.map((q) => q.item));
      if (results.length !== batch.length) throw new Error(`batch of ${batch.length} returned ${results.length} results`);
      for (const [i, q] of batch.entries()) q.resolve(results[i]!);
    } catch (error) {
      for (const q of batch) q.reject(error);
    } finally {
      running = false;
      flush();
    }
  }

  function flush(): void {
    if (timer) clearTimer(timer);
    timer = undefined;
    if (running || queue.length === 0) return;
    running = true;
    void runBatch(queue.splice(0, settings.maxBatch));
  }

  return {
    add(item) {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (running) return;
        if (queue.length >= settings.maxBatch) flush();
        // Node's shortest timer is 1 ms: a window of 0 waits for the loop's next turn instead.
        else timer ??= settings.windowMs > 0 ? setTimeout(flush, settings.windowMs) : setImmediate(flush);
      });
    },
  };
}

function clearTimer(timer: NodeJS.Timeout | NodeJS.Immediate): void {
  if ('hasRef' in timer && 'refresh' in timer) clearTimeout(timer);
  else clearImmediate(timer);
}

/** What the queue did so far. */
export interface QueueStats {
  queued: number;
  /** Offers refused because the queue was full. */
  dropped: number;
  /** Jobs that ran to their end (whatever their outcome). */
  done: number;
  /** Jobs that threw (logged by `onError`). */
  failed: number;
}

export interface BoundedQueueSettings {
  /** Most jobs waiting; an offer beyond it is dropped and counted. */
  capacity: number;
  /** Jobs running at once. */
  concurrency: number;
  onError: (error: unknown) => void;
}

/**
 * Background work that must never slow the request that produced it: `offer` returns at once, a
 * job starts in a later macrotask (after the answer went out), at most `concurrency` run at a
 * time, and a full queue drops the offer (counted) instead of growing.
 */
export class BoundedQueue {
  private readonly waiting: (() => Promise<void>)[] = [];
  private running = 0;
  private readonly counts: QueueStats = { queued: 0, dropped: 0, done: 0, failed: 0 };
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly settings: BoundedQueueSettings) {}

  /** Queues a job; false (and counted as dropped) when the queue is full. */
  offer(job: () => Promise<void>): boolean {
    if (this.waiting.length >= this.settings.capacity) {
      this.counts.dropped++;
      return false;
    }
    this.waiting.push(job);
    this.counts.queued++;
    setImmediate(() => this.pump());
    return true;
  }

  stats(): QueueStats {
    return { ...this.counts };
  }

  /** Resolves once nothing is waiting or running (tests, shutdown). */
  idle(): Promise<void> {
    if (this.running === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.running < this.settings.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      this.running++;
      void this.run(job);
    }
  }

  private async run(job: () => Promise<void>): Promise<void> {
    try {
      await job();
    } catch (error) {
      this.counts.failed++;
      this.settings.onError(error);
    } finally {
      this.counts.done++;
      this.running--;
      this.pump();
      if (this.running === 0 && this.waiting.length === 0) this.wakeIdle();
    }
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}

import { randomUUID } from 'node:crypto';
import type { Kv } from '@svc/kv';
import type { FeedbackScore, JudgedPair, RouteOutcome, Router, WeightStore } from '@svc/router';

/** Where an earlier release kept the router's learned state: one key for every deployment on the kv. */
export const SHARED_WEIGHTS_KEY = 'svc:router:weights';

/**
 * A kv key holding the router's learned state as JSON (shared by every instance). While `key`
 * holds nothing yet, `earlierKey`'s state is read instead (an upgrade keeps what was learned); the
 * first save writes `key`, and `earlierKey` is never read again.
 */
export function kvWeightStore(kv: Kv, key = SHARED_WEIGHTS_KEY, earlierKey?: string): WeightStore {
  const lockKey = `${key}:lock`;
  const read = async (): Promise<unknown> => {
    const raw = (await kv.get(key)) ?? (earlierKey === undefined ? null : await kv.get(earlierKey));
    if (raw === null) return undefined;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return undefined; // unreadable: the next save replaces it
    }
  };
  return {
    load: read,
    async save(snapshot) {
      await kv.set(key, JSON.stringify(snapshot));
    },
    // A lease (SET NX with an expiry) serialises the instances' read-merge-write; one that finds
    // it taken retries at its next save, keeping what it learned meanwhile.
    async update(merge) {
      const token = randomUUID();
      if (!(await kv.setIfAbsent(lockKey, token, { ttlMs: 10_000 }))) throw new Error('router weights: another instance is saving; retrying at the next save');
      try {
        const next = merge(await read());
        await kv.set(key, JSON.stringify(next));
        return next;
      } finally {
        if ((await kv.get(lockKey)) === token) await kv.delete(lockKey);
      }
    },
  };
}

export interface RouterFeedbackSettings {
  router: Router;
  /** How often learned weights are saved when something was learned. Default 30 s; 0 never. */
  saveIntervalMs?: number;
  /** Outcomes kept while the learner catches up; beyond it the oldest are dropped (and counted). */
  maxPending?: number;
  onError?: (error: unknown, what: string) => void;
}

/**
 * The router's side of the learn stage: outcomes are queued on the response path (a push) and
 * learned from in the next macrotask, so the O(d^2) update never delays an answer; weights are
 * saved periodically through the router's `WeightStore` and on close.
 */
export class RouterFeedback {
  private pending: RouteOutcome[] = [];
  private scheduled = false;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private learned = 0;
  private dropped = 0;
  private readonly maxPending: number;
  private readonly onError: (error: unknown, what: string) => void;

  constructor(private readonly settings: RouterFeedbackSettings) {
    this.maxPending = settings.maxPending ?? 10_000;
    this.onError = settings.onError ?? (() => {});
    const every = settings.saveIntervalMs ?? 30_000;
    if (every > 0) {
      this.timer = setInterval(() => void this.save(), every);
      this.timer.unref();
    }
  }

  get router(): Router {
    return this.settings.router;
  }

  record(outcome: RouteOutcome): void {
    if (this.pending.length >= this.maxPending) {
      this.pending.shift();
      this.dropped++;
    }
    this.pending.push(outcome);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
  }

  /** Teaches the router's per-task learner a judged comparison (shadow judging); saved with the weights. Throws on a malformed pair. */
  recordJudgedPair(pair: JudgedPair): void {
    this.settings.router.recordJudgedPair(pair);
    this.dirty = true;
  }

  /** Teaches the router's per-task learner a feedback score (`POST /v1/feedback`); saved with the weights. Throws on a malformed score. */
  recordFeedback(feedback: FeedbackScore): void {
    this.settings.router.recordFeedback(feedback);
    this.dirty = true;
  }

  /** Learns from every queued outcome now. */
  drain(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    for (const outcome of batch) {
      try {
        this.settings.router.record(outcome);
        this.learned++;
        this.dirty = true;
      } catch (error) {
        this.onError(error, 'router feedback');
      }
    }
  }

  /** Loads saved weights; a snapshot the policy cannot take is reported and skipped. */
  async restore(): Promise<void> {
    try {
      await this.settings.router.restore();
    } catch (error) {
      this.onError(error, 'router weights restore');
    }
  }

  /** Saves the weights when anything was learned since the last save (merged with the other instances'), else reloads them. Never rejects. */
  async save(): Promise<void> {
    if (!this.dirty) {
      // Nothing to add: take up what the other instances learned since.
      await this.restore();
      return;
    }
    this.dirty = false;
    try {
      await this.settings.router.save();
    } catch (error) {
      this.dirty = true;
      this.onError(error, 'router weights save');
    }
  }

  stats(): { learned: number; pending: number; dropped: number } {
    return { learned: this.learned, pending: this.pending.length, dropped: this.dropped };
  }

  /** Learns what is queued, saves, and stops the timer. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.drain();
    await this.save();
  }
}

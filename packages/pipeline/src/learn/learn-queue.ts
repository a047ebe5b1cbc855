import type { UsageEvent as DbUsageEvent, RoutingDecisionRecord } from '@svc/db';
import type { Attempt } from '../call/attempt.js';

/** One billable request, as the usage ledger stores it. */
export type UsageEvent = DbUsageEvent;

/** One routing decision with its waterfall attempts and outcome, as the decision log stores it. */
export type DecisionRecord = Omit<RoutingDecisionRecord, 'attempts' | 'candidates'> & {
  attempts: Attempt[];
  candidates: readonly unknown[];
};

/** Where batches go (the relational store in production). */
export interface LearnWriter {
  writeUsage(events: UsageEvent[]): Promise<void>;
  writeDecisions(rows: DecisionRecord[]): Promise<void>;
}

export interface LearnQueueSettings {
  writer: LearnWriter;
  batchSize?: number;
  flushIntervalMs?: number;
  onError?: (error: unknown) => void;
}

/** Counters of the learn stage on this instance since it started. Times are epoch ms. */
export interface LearnStats {
  /** Entries recorded here and not yet written (nor journaled). */
  queued: number;
  /** Entries written to the store by this instance. */
  processed: number;
  /** Failed batch writes and journal appends. */
  failures: number;
  /** When a batch was last written; null before the first. */
  lastFlushAt: number | null;
  /** When a write or append last failed; null when none has. */
  lastErrorAt: number | null;
}

/**
 * What waits to be written, wherever it waits: this instance's queue (`instance`), or the
 * journal every instance appends to (`shared`, plus this instance's unjournaled fallback).
 */
export interface LearnBacklog {
  scope: 'instance' | 'shared';
  usage: number;
  decisions: number;
  /** Epoch ms the oldest waiting entry was recorded; null when nothing waits. */
  oldestPendingAt: number | null;
}

/** The older of two epoch-ms instants, either possibly absent. */
export function older(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  return b === null ? a : Math.min(a, b);
}

/** Epoch ms of the first (oldest) queued record. */
export function firstCreatedAt(rows: readonly { createdAt: Date }[]): number | null {
  const first = rows[0];
  return first ? new Date(first.createdAt).getTime() : null;
}

/**
 * The learn stage: records are queued in memory on the response path (a push, nothing else)
 * and written in batches off it. A failed batch stays queued and is retried; `close()`
 * flushes what is left, so a graceful shutdown loses nothing.
 */
export class LearnQueue {
  private usage: UsageEvent[] = [];
  private decisions: DecisionRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private processed = 0;
  private failures = 0;
  private lastFlushAt: number | null = null;
  private lastErrorAt: number | null = null;
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;

  constructor(private readonly settings: LearnQueueSettings) {
    // An embedded store runs statements on this thread: 500 rows keeps one statement's stall
    // short (p99 at 50 connections 286 -> ~150 ms with the yield below), while smaller batches
    // pay its per-transaction cost more often (200 rows: +30% CPU per request).
    this.batchSize = settings.batchSize ?? 500;
    // One transaction a second keeps the store's per-flush cost off the request rate.
    this.flushIntervalMs = settings.flushIntervalMs ?? 1_000;
  }

  recordUsage(event: UsageEvent): void {
    this.usage.push(event);
    this.schedule();
  }

  recordDecision(row: DecisionRecord): void {
    this.decisions.push(row);
    this.schedule();
  }

  stats(): LearnStats {
    return { queued: this.usage.length + this.decisions.length, processed: this.processed, failures: this.failures, lastFlushAt: this.lastFlushAt, lastErrorAt: this.lastErrorAt };
  }

  backlog(): Promise<LearnBacklog> {
    return Promise.resolve(this.lastBacklog());
  }

  lastBacklog(): LearnBacklog {
    return { scope: 'instance', usage: this.usage.length, decisions: this.decisions.length, oldestPendingAt: older(firstCreatedAt(this.usage), firstCreatedAt(this.decisions)) };
  }

  private failed(error: unknown): void {
    this.failures++;
    this.lastErrorAt = Date.now();
    this.settings.onError?.(error);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.flushIntervalMs);
    this.timer.unref();
  }

  /** Writes everything queued now; concurrent calls share one flush. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.usage.length === 0 && this.decisions.length === 0) return;
    this.flushing = this.drain().finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }

  private async drain(): Promise<void> {
    while (this.usage.length > 0 || this.decisions.length > 0) {
      const usage = this.usage.splice(0, this.batchSize);
      const decisions = this.decisions.splice(0, this.batchSize);
      try {
        if (usage.length > 0) await this.settings.writer.writeUsage(usage);
      } catch (error) {
        this.usage.unshift(...usage);
        this.decisions.unshift(...decisions);
        this.failed(error);
        return;
      }
      try {
        if (decisions.length > 0) await this.settings.writer.writeDecisions(decisions);
      } catch (error) {
        this.decisions.unshift(...decisions);
        this.processed += usage.length;
        this.failed(error);
        return;
      }
      this.processed += usage.length + decisions.length;
      this.lastFlushAt = Date.now();
      // Let waiting requests run between statements.
      if (this.usage.length > 0 || this.decisions.length > 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Flushes and stops the timer. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

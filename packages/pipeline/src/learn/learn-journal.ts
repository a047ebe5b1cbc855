import type { Kv } from '@svc/kv';
import { encodeRow, reviveRow } from '@svc/db';
import { type DecisionRecord, type LearnBacklog, type LearnStats, type LearnWriter, type UsageEvent, firstCreatedAt, older } from './learn-queue.js';


/**
 * Lifetime of the drain lock, renewed before every batch: an instance killed mid-drain holds
 * the others' ledger writes back by at most this long (it was 60 s, unrenewed).
 */
export const DRAIN_LOCK_TTL_MS = 10_000;
/** What the pipeline and the runtime need of the learn stage, in memory or journaled. */
export interface LearnSink {
  recordUsage(event: UsageEvent): void;
  recordDecision(row: DecisionRecord): void;
  /** Writes everything recorded so far to the relational store. */
  flush(): Promise<void>;
  stats(): LearnStats;
  /** What waits to be written now (reads the journal when there is one). */
  backlog(): Promise<LearnBacklog>;
  /**
   * The last backlog measured without waiting: the queue itself in memory; for the journal the
   * figures of its last drain tick (once a flush interval).
   */
  lastBacklog(): LearnBacklog;
  /** Flushes and stops the timers. */
  close(): Promise<void>;
}

export interface KvJournalSettings {
  kv: Kv;
  writer: LearnWriter;
  /** Entries written per statement. Default 500. */
  batchSize?: number;
  flushIntervalMs?: number;
  /** Key prefix of the two streams and the drain lock. Default {@link SHARED_JOURNAL_PREFIX}. */
  prefix?: string;
  /** The drain lock's key, when not the prefix's (`<prefix>drain-lock`). */
  drainLock?: string;
  onError?: (error: unknown) => void;
  /**
   * The streams are shared with other deployments (the earlier releases' journal, one for every
   * deployment on the Redis database): only the rows of organisations this store knows are
   * written and deleted; the others are left for their own deployment, and read past.
   */
  owns?: OwnedOrgs;
  /**
   * Also drains the journal an earlier release kept under {@link SHARED_JOURNAL_PREFIX}, for this
   * store's organisations only (`owns`), every `everyMs`, and once more at close: what an instance
   * of that release left there (a crash, or appends during a rolling upgrade) reaches the store.
   */
  earlier?: { owns: OwnedOrgs; everyMs: number };
}

/** Of the organisation ids given, those this store knows. */
export type OwnedOrgs = (orgIds: readonly string[]) => Promise<ReadonlySet<string>>;

/**
 * The journal's prefix before it was named by the store (releases up to 2026-12-06): one journal
 * for every deployment sharing the Redis database, each draining the others' rows into its store.
 */
export const SHARED_JOURNAL_PREFIX = 'svc:learn:';

/**
 * The lock of a deployment's drain of the earlier releases' shared journal, under its own prefix:
 * the earlier release's instances of every deployment take the shared lock every second, and a
 * drain that found it taken would pass for done.
 */
export function earlierDrainLock(prefix: string): string {
  return `${prefix}earlier-drain-lock`;
}

const usageStream = 'usage';
const decisionStream = 'decisions';


/**
 * The learn stage journaled in the shared kv (Redis Streams): each usage event and decision is
 * appended on the response path (one command, not awaited by the answer) and drained in batches
 * to the relational store by whichever instance holds the drain lock; entries are deleted only
 * after their batch was written. A crash loses nothing that reached the stream, and a batch
 * written twice (a crash between write and delete) is counted once: the ledger is idempotent by
 * request id. An append that fails falls back to an in-memory queue drained the same way.
 */
export class KvLearnJournal implements LearnSink {
  private readonly kv: Kv;
  private readonly prefix: string;
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly instance = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  private readonly fallbackUsage: UsageEvent[] = [];
  private readonly fallbackDecisions: DecisionRecord[] = [];
  private pendingAppends = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private processed = 0;
  private failures = 0;
  private lastFlushAt: number | null = null;
  private lastErrorAt: number | null = null;
  private measured: LearnBacklog = { scope: 'shared', usage: 0, decisions: 0, oldestPendingAt: null };
  private closed = false;
  /** Shared streams only: the last entry id read, per stream (entries left for others are not read again). */
  private readonly readPast = new Map<string, string>();
  private readonly earlier: KvLearnJournal | undefined;

  constructor(private readonly settings: KvJournalSettings) {
    this.kv = settings.kv;
    this.prefix = settings.prefix ?? SHARED_JOURNAL_PREFIX;
    this.batchSize = settings.batchSize ?? 500;
    this.flushIntervalMs = Math.max(10, settings.flushIntervalMs ?? 1_000);
    this.onError = settings.onError ?? (() => {});
    this.earlier = settings.earlier
      ? new KvLearnJournal({
          kv: settings.kv,
          writer: settings.writer,
          batchSize: settings.batchSize,
          onError: settings.onError,
          owns: settings.earlier.owns,
          flushIntervalMs: settings.earlier.everyMs,
          // This store's own lock: another deployment draining its rows never holds this one back.
          drainLock: earlierDrainLock(this.prefix),
        })
      : undefined;
    // At once too: what an earlier release's instance left (a crash) need not wait a whole period.
    void this.earlier?.flush().catch(this.onError);
    // Each tick drains, then measures what is left for the metrics (a failed measure keeps the last one).
    this.timer = setInterval(() => void this.flush().then(() => this.backlog().then(() => undefined, () => undefined), this.onError), this.flushIntervalMs);
    this.timer.unref();
  }

  recordUsage(event: UsageEvent): void {
    this.append(usageStream, event, () => this.fallbackUsage.push(event));
  }

  recordDecision(row: DecisionRecord): void {
    this.append(decisionStream, row, () => this.fallbackDecisions.push(row));
  }

  private append(stream: string, value: object, fallback: () => void): void {
    const pending = this.kv.append(this.prefix + stream, { v: encodeRow(value) }).catch((error: unknown) => {
      this.failed(error);
      fallback();
    });
    this.pendingAppends.add(pending);
    void pending.finally(() => this.pendingAppends.delete(pending));
  }

  stats(): LearnStats {
    return {
      queued: this.fallbackUsage.length + this.fallbackDecisions.length + this.pendingAppends.size,
      processed: this.processed,
      failures: this.failures,
      lastFlushAt: this.lastFlushAt,
      lastErrorAt: this.lastErrorAt,
    };
  }

  /** The journal's two streams (every instance's entries) plus this instance's fallback queue. */
  async backlog(): Promise<LearnBacklog> {
    const usageKey = this.prefix + usageStream;
    const decisionKey = this.prefix + decisionStream;
    const [usage, decisions, [firstUsage], [firstDecision]] = await Promise.all([
      this.kv.streamLength(usageKey),
      this.kv.streamLength(decisionKey),
      this.kv.read(usageKey, '0', 1),
      this.kv.read(decisionKey, '0', 1),
    ]);
    // A stream entry's id starts with the ms it was appended at.
    const journaled = older(firstUsage ? Number.parseInt(firstUsage.id, 10) : null, firstDecision ? Number.parseInt(firstDecision.id, 10) : null);
    this.measured = {
      scope: 'shared',
      usage: usage + this.fallbackUsage.length,
      decisions: decisions + this.fallbackDecisions.length,
      oldestPendingAt: older(journaled, older(firstCreatedAt(this.fallbackUsage), firstCreatedAt(this.fallbackDecisions))),
    };
    return this.measured;
  }

  lastBacklog(): LearnBacklog {
    return this.measured;
  }

  private failed(error: unknown): void {
    this.failures++;
    this.lastErrorAt = Date.now();
    this.onError(error);
  }

  /** Drains both streams (and the in-memory fallback) to the store; concurrent calls share one run. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.flushing = this.drain().finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }

  private async drain(): Promise<void> {
    await Promise.all([...this.pendingAppends]);
    await this.drainFallback();
    const lock = this.settings.drainLock ?? `${this.prefix}drain-lock`;
    // One drainer at a time across instances; the lock expires soon after its holder dies mid-drain.
    if (!(await this.kv.setIfAbsent(lock, this.instance, { ttlMs: DRAIN_LOCK_TTL_MS }))) return;
    try {
      await this.drainStream(usageStream, lock, (rows: UsageEvent[]) => this.settings.writer.writeUsage(rows));
      await this.drainStream(decisionStream, lock, (rows: DecisionRecord[]) => this.settings.writer.writeDecisions(rows));
    } finally {
      if ((await this.kv.get(lock)) === this.instance) await this.kv.delete(lock);
    }
  }

  private async drainStream<T extends { createdAt?: Date | string | null; orgId?: string }>(stream: string, lock: string, write: (rows: T[]) => Promise<void>): Promise<void> {
    const key = this.prefix + stream;
    while (true) {
      await this.renew(lock);
      const entries = await this.kv.read(key, this.readPast.get(key) ?? '0', this.batchSize);
      if (entries.length === 0) return;
      const read: { id: string; row: T }[] = [];
      for (const entry of entries) {
        try {
          read.push({ id: entry.id, row: reviveRow<T>(entry.fields.v ?? '') });
        } catch (error) {
          // An unreadable entry can never be written: reported, then dropped with its batch (left, in shared streams).
          this.onError(error);
        }
      }
      const owns = this.settings.owns;
      const taken = owns ? await ownRows(read, owns) : read;
      try {
        if (taken.length > 0) await write(taken.map((entry) => entry.row));
      } catch (error) {
        this.failed(error);
        return; // kept in the stream: the next flush retries it
      }
      await this.kv.ack(key, owns ? taken.map((entry) => entry.id) : entries.map((e) => e.id));
      if (owns) this.readPast.set(key, entries[entries.length - 1]!.id);
      this.processed += taken.length;
      this.lastFlushAt = Date.now();
      if (entries.length < this.batchSize) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Extends the drain lock before each batch while this instance still holds it. Between the read
   * and the write another instance may take an expired lock and drain the same entries: harmless,
   * the ledger's rows are idempotent by request id.
   */
  private async renew(lock: string): Promise<void> {
    if ((await this.kv.get(lock)) === this.instance) await this.kv.set(lock, this.instance, { ttlMs: DRAIN_LOCK_TTL_MS });
  }

  private async drainFallback(): Promise<void> {
    if (this.fallbackUsage.length > 0) {
      const rows = this.fallbackUsage.splice(0);
      try {
        await this.settings.writer.writeUsage(rows);
        this.processed += rows.length;
        this.lastFlushAt = Date.now();
      } catch (error) {
        this.fallbackUsage.unshift(...rows);
        this.failed(error);
      }
    }
    if (this.fallbackDecisions.length > 0) {
      const rows = this.fallbackDecisions.splice(0);
      try {
        await this.settings.writer.writeDecisions(rows);
        this.processed += rows.length;
        this.lastFlushAt = Date.now();
      } catch (error) {
        this.fallbackDecisions.unshift(...rows);
        this.failed(error);
      }
    }
  }

  /**
   * Stops the timer and drains once more. A kv that is unavailable at that moment (its circuit
   * open) fails the drain, not the shutdown: what is journaled stays in the kv for the next
   * instance to drain, and the failure is reported.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.flush().catch((error: unknown) => this.failed(error));
    await this.earlier?.close();
  }
}

/** The entries of organisations this store knows (shared streams). */
async function ownRows<T extends { orgId?: string }>(read: { id: string; row: T }[], owns: OwnedOrgs): Promise<{ id: string; row: T }[]> {
  const known = await owns([...new Set(read.flatMap((entry) => (entry.row.orgId ? [entry.row.orgId] : [])))]);
  return read.filter((entry) => entry.row.orgId !== undefined && known.has(entry.row.orgId));
}

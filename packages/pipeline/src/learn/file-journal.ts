import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { type RowIntake, encodeRow } from '@svc/db';
import type { LearnSink } from './learn-journal.js';
import { type DecisionRecord, type LearnBacklog, type LearnStats, type UsageEvent, older } from './learn-queue.js';

export interface FileJournalSettings {
  /** A directory of the journal's own (the embedded data directory's `journal/`). */
  dir: string;
  /** The store's intake: it takes each row at once and batches and retries the writes. */
  intake: RowIntake;
  flushIntervalMs?: number;
  onError?: (error: unknown) => void;
}

/** One journal file and how many rows it holds that the store has not confirmed. */
interface Segment {
  path: string;
  usage: number;
  decisions: number;
  /** Epoch ms of its first row; null while it has none. */
  oldestAt: number | null;
}

const SEGMENT = /^learn-(\d{12})\.jsonl$/;
const segmentName = (sequence: number) => `learn-${String(sequence).padStart(12, '0')}.jsonl`;
/** Epoch ms of a row's `createdAt` (a string in a row read back from a file). */
const createdAtMs = (row: { createdAt: Date | string }) => (typeof row.createdAt === 'string' ? Date.parse(row.createdAt) : row.createdAt.getTime());

/**
 * The learn stage journaled in local files, for the embedded store without Redis: each usage
 * event (the ledger, what is billed) is appended to the current file (one write(2) on the
 * response path: in the kernel when the call returns, so a killed process loses none of it); every
 * row, usage and decision, is then handed to the store's intake at once (the store thread takes it
 * on the next turn of the loop, and batches and retries the writes), so the request path holds
 * none of them. Decision rows are not journaled (a killed process loses the routing log the store
 * had not written yet: a decision row with its candidates is several times a usage row, and
 * journaling it doubled the journal's cost per request). A flush seals the current file, waits for
 * the store to have written every row handed so far and then deletes the sealed files. At start
 * the files a killed process left are handed first; the ledger is idempotent by request id, so a
 * row written twice counts once.
 */
export class FileLearnJournal implements LearnSink {
  private readonly onError: (error: unknown) => void;
  private sealed: Segment[];
  private current: Segment & { fd: number };
  private sequence: number;
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | undefined;
  private processed = 0;
  private failures = 0;
  private lastFlushAt: number | null = null;
  private lastErrorAt: number | null = null;

  constructor(private readonly settings: FileJournalSettings) {
    this.onError = settings.onError ?? (() => {});
    mkdirSync(settings.dir, { recursive: true });
    this.sealed = this.readLeftovers();
    this.sequence = Number(this.sealed.at(-1)?.path.match(/(\d{12})\.jsonl$/)?.[1] ?? 0);
    this.current = this.openSegment();
    this.timer = setInterval(() => void this.flush(), Math.max(10, settings.flushIntervalMs ?? 1_000));
    this.timer.unref();
  }

  recordUsage(event: UsageEvent): void {
    const json = encodeRow(event);
    this.append(json);
    this.current.usage++;
    this.current.oldestAt ??= createdAtMs(event);
    this.settings.intake.hand('usage', json);
  }

  /** Decisions are handed to the store only: the routing log is analytics, and its rows are large. */
  recordDecision(row: DecisionRecord): void {
    this.current.decisions++;
    this.current.oldestAt ??= createdAtMs(row);
    this.settings.intake.hand('decision', encodeRow(row));
  }

  private append(json: string): void {
    try {
      writeSync(this.current.fd, `{"k":"u","v":${json}}\n`);
    } catch (error) {
      // The row is handed all the same; only a crash before the store writes it loses it.
      this.failed(error);
    }
  }

  stats(): LearnStats {
    const queued = this.segments().reduce((sum, segment) => sum + segment.usage + segment.decisions, 0);
    return { queued, processed: this.processed, failures: this.failures, lastFlushAt: this.lastFlushAt, lastErrorAt: this.lastErrorAt };
  }

  backlog(): Promise<LearnBacklog> {
    return Promise.resolve(this.lastBacklog());
  }

  lastBacklog(): LearnBacklog {
    const segments = this.segments();
    const oldest = segments.reduce<number | null>((at, segment) => older(at, segment.oldestAt), null);
    const count = (pick: (segment: Segment) => number) => segments.reduce((sum, segment) => sum + pick(segment), 0);
    return { scope: 'instance', usage: count((s) => s.usage), decisions: count((s) => s.decisions), oldestPendingAt: oldest };
  }

  /** Seals the current file, waits for the store to have every row handed so far and deletes the sealed files; concurrent calls share one run. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.flushing = this.drain().finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    closeSync(this.current.fd);
    if (this.current.usage === 0 && this.current.decisions === 0) rmSync(this.current.path, { force: true });
  }

  private segments(): Segment[] {
    return [...this.sealed, this.current];
  }

  private async drain(): Promise<void> {
    if (this.current.usage > 0 || this.current.decisions > 0) {
      closeSync(this.current.fd);
      this.sealed.push({ path: this.current.path, usage: this.current.usage, decisions: this.current.decisions, oldestAt: this.current.oldestAt });
      this.current = this.openSegment();
    }
    if (this.sealed.length === 0) return;
    const written = this.sealed;
    try {
      await this.settings.intake.settle();
    } catch (error) {
      this.failed(error);
      return; // the files stay; the store writes their rows again at the next settle (idempotent by request id)
    }
    for (const segment of written) {
      rmSync(segment.path, { force: true });
      this.processed += segment.usage + segment.decisions;
    }
    this.sealed = [];
    this.lastFlushAt = Date.now();
  }

  private openSegment(): Segment & { fd: number } {
    this.sequence += 1;
    const path = join(this.settings.dir, segmentName(this.sequence));
    return { path, usage: 0, decisions: 0, oldestAt: null, fd: openSync(path, 'a') };
  }

  /** The files a stopped process left, oldest first, their rows handed to the store (a line cut by a kill is skipped). */
  private readLeftovers(): Segment[] {
    const names = readdirSync(this.settings.dir).filter((name) => SEGMENT.test(name)).sort();
    return names.map((name) => {
      const segment: Segment = { path: join(this.settings.dir, name), usage: 0, decisions: 0, oldestAt: null };
      for (const line of readFileSync(segment.path, 'utf8').split('\n')) {
        if (line.length > 0) this.handLeftover(segment, line);
      }
      return segment;
    });
  }

  private handLeftover(segment: Segment, line: string): void {
    try {
      const entry = JSON.parse(line) as { k: string; v: UsageEvent & DecisionRecord };
      const usage = entry.k === 'u';
      if (usage) segment.usage++;
      else segment.decisions++;
      segment.oldestAt ??= createdAtMs(entry.v);
      this.settings.intake.hand(usage ? 'usage' : 'decision', encodeRow(entry.v));
    } catch (error) {
      this.onError(error);
    }
  }

  private failed(error: unknown): void {
    this.failures++;
    this.lastErrorAt = Date.now();
    this.onError(error);
  }
}

import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { LearnSink } from './learn-journal.js';
import { encodeJournalRow, reviveDates } from './journal-row.js';
import { type DecisionRecord, type LearnBacklog, type LearnStats, type LearnWriter, type UsageEvent, firstCreatedAt, older } from './learn-queue.js';

export interface FileJournalSettings {
  /** A directory of the journal's own (the embedded data directory's `journal/`). */
  dir: string;
  writer: LearnWriter;
  /** Rows written per statement. Default 500. */
  batchSize?: number;
  flushIntervalMs?: number;
  onError?: (error: unknown) => void;
}

/** One journal file and the rows it holds. */
interface Segment {
  path: string;
  usage: UsageEvent[];
  decisions: DecisionRecord[];
}

const SEGMENT = /^learn-(\d{12})\.jsonl$/;
const segmentName = (sequence: number) => `learn-${String(sequence).padStart(12, '0')}.jsonl`;

/**
 * The learn stage journaled in local files, for the embedded store without Redis: each usage
 * event (the ledger, what is billed) is appended to the current file (one write(2) on the
 * response path: in the kernel when the call returns, so a killed process loses none of it) and
 * kept in memory; decision rows are kept in memory only (a killed process loses the routing log
 * of its last flush interval: a decision row with its candidates is several times a usage row,
 * and journaling it doubled the journal's cost per request). A flush
 * seals the current file, writes the sealed files' rows to the store in batches and deletes each
 * file once its rows are written. At start the files a killed process left are written first; the
 * ledger is idempotent by request id, so a file written twice counts once.
 */
export class FileLearnJournal implements LearnSink {
  private readonly batchSize: number;
  private readonly onError: (error: unknown) => void;
  private readonly sealed: Segment[];
  private current: Segment & { fd: number };
  private sequence: number;
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | undefined;
  private processed = 0;
  private failures = 0;
  private lastFlushAt: number | null = null;
  private lastErrorAt: number | null = null;

  constructor(private readonly settings: FileJournalSettings) {
    this.batchSize = settings.batchSize ?? 500;
    this.onError = settings.onError ?? (() => {});
    mkdirSync(settings.dir, { recursive: true });
    this.sealed = this.readLeftovers();
    this.sequence = Number(this.sealed.at(-1)?.path.match(/(\d{12})\.jsonl$/)?.[1] ?? 0);
    this.current = this.openSegment();
    this.timer = setInterval(() => void this.flush(), Math.max(10, settings.flushIntervalMs ?? 1_000));
    this.timer.unref();
  }

  recordUsage(event: UsageEvent): void {
    this.append('u', event);
    this.current.usage.push(event);
  }

  /** Decisions are kept in memory only: the routing log is analytics, and its rows are large. */
  recordDecision(row: DecisionRecord): void {
    this.current.decisions.push(row);
  }

  private append(kind: 'u', row: object): void {
    try {
      writeSync(this.current.fd, `{"k":"${kind}","v":${encodeJournalRow(row)}}\n`);
    } catch (error) {
      // The row stays in memory and is written at the next flush; only a crash before it loses it.
      this.failed(error);
    }
  }

  stats(): LearnStats {
    const queued = [this.current, ...this.sealed].reduce((sum, segment) => sum + segment.usage.length + segment.decisions.length, 0);
    return { queued, processed: this.processed, failures: this.failures, lastFlushAt: this.lastFlushAt, lastErrorAt: this.lastErrorAt };
  }

  backlog(): Promise<LearnBacklog> {
    return Promise.resolve(this.lastBacklog());
  }

  lastBacklog(): LearnBacklog {
    const segments = [...this.sealed, this.current];
    let oldest: number | null = null;
    for (const segment of segments) oldest = older(oldest, older(firstCreatedAt(segment.usage), firstCreatedAt(segment.decisions)));
    const count = (pick: (segment: Segment) => unknown[]) => segments.reduce((sum, segment) => sum + pick(segment).length, 0);
    return { scope: 'instance', usage: count((s) => s.usage), decisions: count((s) => s.decisions), oldestPendingAt: oldest };
  }

  /** Seals the current file and writes every sealed one to the store; concurrent calls share one run. */
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
    if (this.current.usage.length === 0 && this.current.decisions.length === 0) rmSync(this.current.path, { force: true });
  }

  private async drain(): Promise<void> {
    if (this.current.usage.length > 0 || this.current.decisions.length > 0) {
      closeSync(this.current.fd);
      this.sealed.push({ path: this.current.path, usage: this.current.usage, decisions: this.current.decisions });
      this.current = this.openSegment();
    }
    while (this.sealed.length > 0) {
      const segment = this.sealed[0]!;
      try {
        await this.writeInBatches(segment.usage, (rows) => this.settings.writer.writeUsage(rows));
        await this.writeInBatches(segment.decisions, (rows) => this.settings.writer.writeDecisions(rows));
      } catch (error) {
        this.failed(error);
        return; // the file stays; the next flush writes it again (idempotent by request id)
      }
      rmSync(segment.path, { force: true });
      this.sealed.shift();
      this.processed += segment.usage.length + segment.decisions.length;
      this.lastFlushAt = Date.now();
    }
  }

  private async writeInBatches<T>(rows: T[], write: (batch: T[]) => Promise<void>): Promise<void> {
    for (let start = 0; start < rows.length; start += this.batchSize) {
      await write(rows.slice(start, start + this.batchSize));
      if (start + this.batchSize < rows.length) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private openSegment(): Segment & { fd: number } {
    this.sequence += 1;
    const path = join(this.settings.dir, segmentName(this.sequence));
    return { path, usage: [], decisions: [], fd: openSync(path, 'a') };
  }

  /** The files a stopped process left, oldest first, with their rows (a line cut by a kill is skipped). */
  private readLeftovers(): Segment[] {
    const names = readdirSync(this.settings.dir).filter((name) => SEGMENT.test(name)).sort();
    return names.map((name) => {
      const segment: Segment = { path: join(this.settings.dir, name), usage: [], decisions: [] };
      for (const line of readFileSync(segment.path, 'utf8').split('\n')) {
        if (line.length === 0) continue;
        try {
          const entry = JSON.parse(line) as { k: string; v: UsageEvent & DecisionRecord };
          (entry.k === 'u' ? segment.usage : segment.decisions).push(reviveDates(entry.v));
        } catch (error) {
          this.onError(error);
        }
      }
      return segment;
    });
  }

  private failed(error: unknown): void {
    this.failures++;
    this.lastErrorAt = Date.now();
    this.onError(error);
  }
}

import type { DecisionRepository } from './repositories/decisions.js';
import type { UsageRepository } from './repositories/usage.js';
import type { NewRoutingDecision, NewUsageEvent } from './types.js';

/** Which table a handed row goes to: the usage ledger or the decision log. */
export type RowKind = 'usage' | 'decision';

/**
 * The ledger's and the decision log's rows handed to the store as each request records them:
 * the store batches them and writes a failed batch again, so the request path keeps none of them.
 * The embedded store takes them on its own thread (a message per turn of the event loop).
 */
export interface RowIntake {
  /** A row as JSON (`encodeRow`). Returns at once. */
  hand(kind: RowKind, json: string): void;
  /**
   * Resolves once every row handed before the call is in the store; rejects when a write failed
   * (its rows stay with the store and are written again by the next settle).
   */
  settle(): Promise<void>;
}

/** A usage event or decision row as JSON, its `createdAt` an ISO string. */
export function encodeRow(row: object): string {
  return JSON.stringify(row);
}

type Dated = { createdAt?: Date | string | null };

/** A parsed row with its `createdAt` a Date again (the repositories expect Date objects). */
export function reviveDates<T extends Dated>(value: T): T {
  if (typeof value.createdAt === 'string') (value as { createdAt: Date }).createdAt = new Date(value.createdAt);
  return value;
}

/** The row back from its JSON. */
export function reviveRow<T extends Dated>(raw: string): T {
  return reviveDates(JSON.parse(raw) as T);
}

/** Rows written per statement: one statement's cost stays short, and its per-transaction cost is shared. */
export const ROW_BATCH = 500;

/** The two repositories the intake writes to. */
export interface RowTables {
  usage: Pick<UsageRepository, 'insertMany'>;
  decisions: Pick<DecisionRepository, 'insertMany'>;
}

/**
 * The store's side of the intake: handed rows wait here and are written in batches of
 * `ROW_BATCH`, as soon as one is full and at each settle; a failed batch goes back in front and
 * is written again at the next settle (the ledger and the log are idempotent by request id). One
 * write at a time.
 */
export class RowBatches implements RowIntake {
  private usage: NewUsageEvent[] = [];
  private decisions: NewRoutingDecision[] = [];
  private writing: Promise<void> | undefined;
  /** A write failed since the last settle: no batch is written on its own until the next settle. */
  private failing = false;

  constructor(private readonly tables: RowTables) {}

  hand(kind: RowKind, json: string): void {
    if (kind === 'usage') this.usage.push(reviveRow<NewUsageEvent>(json));
    else this.decisions.push(reviveRow<NewRoutingDecision>(json));
    if (!this.writing && !this.failing && (this.usage.length >= ROW_BATCH || this.decisions.length >= ROW_BATCH)) this.write().catch(() => {});
  }

  /** Rows handed and not written yet. */
  waiting(): number {
    return this.usage.length + this.decisions.length;
  }

  async settle(): Promise<void> {
    this.failing = false;
    while (this.writing) await this.writing.catch(() => {});
    if (this.waiting() > 0) await this.write();
  }

  private write(): Promise<void> {
    this.writing = this.writeWaiting().finally(() => {
      this.writing = undefined;
    });
    return this.writing;
  }

  /** Writes the rows waiting when it starts (those handed meanwhile may go along). */
  private async writeWaiting(): Promise<void> {
    for (let rounds = Math.ceil(Math.max(this.usage.length, this.decisions.length) / ROW_BATCH); rounds > 0; rounds--) {
      const usage = this.usage.splice(0, ROW_BATCH);
      const decisions = this.decisions.splice(0, ROW_BATCH);
      try {
        if (usage.length > 0) await this.tables.usage.insertMany(usage);
      } catch (error) {
        this.putBack(usage, decisions, error);
      }
      try {
        if (decisions.length > 0) await this.tables.decisions.insertMany(decisions);
      } catch (error) {
        this.putBack([], decisions, error);
      }
    }
  }

  private putBack(usage: NewUsageEvent[], decisions: NewRoutingDecision[], error: unknown): never {
    this.usage.unshift(...usage);
    this.decisions.unshift(...decisions);
    this.failing = true;
    throw error;
  }
}

import type { RowIntake, RowKind } from '../row-intake.js';

/** What the intake needs of the store thread's client. */
export interface IntakeChannel {
  /** Posts the rows to the thread (dropped when the thread is gone: the caller's journal keeps what must last). */
  postRows(usage: string[], decisions: string[]): void;
  /** The thread's `RowBatches.settle()`, answered once the rows posted before it are written. */
  settle(): Promise<void>;
}

/**
 * The request path's side of the embedded store's intake: the rows handed during one turn of the
 * event loop go to the store thread in one message on the next (`setImmediate`), so a request
 * keeps none of them beyond its turn and the thread does the parsing, batching and retrying.
 */
export class ThreadIntake implements RowIntake {
  private usage: string[] = [];
  private decisions: string[] = [];
  private scheduled = false;

  constructor(private readonly channel: IntakeChannel) {}

  hand(kind: RowKind, json: string): void {
    (kind === 'usage' ? this.usage : this.decisions).push(json);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.post);
  }

  settle(): Promise<void> {
    this.post();
    return this.channel.settle();
  }

  private readonly post = (): void => {
    this.scheduled = false;
    if (this.usage.length === 0 && this.decisions.length === 0) return;
    this.channel.postRows(this.usage, this.decisions);
    this.usage = [];
    this.decisions = [];
  };
}

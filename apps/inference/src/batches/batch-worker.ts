import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Authenticator } from '@svc/auth';
import { batchRequestId, toGatewayError } from '@svc/core';
import type { BatchLineRecord, BatchRecord, BatchRepository } from '@svc/db';
import { endBatchHold, shrinkBatchHold } from '@svc/pipeline';
import type { Logger } from '@svc/telemetry';
import type { FileSettings } from '../files/file-store.js';
import { type BatchEnding, finalizeBatch } from './finalize-batch.js';
import { EXPIRED_STATUS } from './message-batch-object.js';
import { type NativeDeps, NativeRunner } from './native/native-runs.js';
import { type LineDeps, type LineEndpoint, runBatchLine } from './run-line.js';

/** What the batch worker runs on: the line's stages, the stores, the batch's key, a limiter that can store a reservation (native parts) and a log. */
export interface BatchWorkerDeps extends LineDeps, NativeDeps {
  batches: BatchRepository;
  files: FileSettings;
  authenticator: Pick<Authenticator, 'callerOfKey'>;
  logger: Logger;
  limiter?: NativeDeps['limiter'];
}

export interface BatchWorkerSettings {
  /** Lines of one batch in flight at once (SVC_BATCH_CONCURRENCY). */
  concurrency: number;
  /** How often an idle worker looks for a batch to work (a batch submitted to this instance wakes it at once). Default 5000 ms. */
  pollMs?: number;
  /** How long a lease holds without renewal (a crashed worker's batch is taken over after it). Default 60 s. */
  leaseMs?: number;
  /** Send the lines a provider's own batch API can answer to it (SVC_BATCH_NATIVE). Default true. */
  native?: boolean;
  /** How often a batch waiting on its providers' batch APIs is polled (SVC_BATCH_NATIVE_POLL_MS). Default 60 s. */
  nativePollMs?: number;
}

/** How working a batch stopped: it ended, it waits on its providers (polled again later), or the worker stopped or lost the lease. */
type WorkStop = BatchEnding | 'wait' | undefined;

/** The budget a batch held could not be given back yet (the Kv failed): the batch ends at a later poll. */
class HoldPending extends Error {
  constructor() {
    super('batches: the budget held for the batch could not be given back yet');
  }
}

/** How long a worker waits after a line was refused by rate limits (429) before it runs the pending lines again. */
const THROTTLE_PAUSE_MS = 2000;

/** A line that could not run because the batch's completion window ended first (OpenAI's shape). */
const expiredLine = (line: BatchLineRecord) => ({
  line: line.line,
  statusCode: EXPIRED_STATUS,
  result: { id: batchRequestId(), custom_id: line.customId, response: null, error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' } },
});

/**
 * Works batches in the background, one at a time per instance at low priority: at most
 * `concurrency` lines in flight, each through the pipeline as the key that submitted the batch.
 * A lease row lets one instance at a time work a batch; each line's answer is recorded before the
 * next lines start, so a batch resumed after a restart never runs an answered line again.
 */
export class BatchWorker {
  private readonly owner = `worker_${randomUUID()}`;
  private readonly stopping = new AbortController();
  private loop: Promise<void> | undefined;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private claimFailing = false;
  private readonly native: NativeRunner;
  private idle: AbortController | undefined;
  /** A wake that came while the worker was not resting: its next rest is skipped. */
  private woken = false;

  constructor(
    private readonly deps: BatchWorkerDeps,
    private readonly settings: BatchWorkerSettings,
  ) {
    this.pollMs = settings.pollMs ?? 5000;
    this.leaseMs = settings.leaseMs ?? 60_000;
    this.native = new NativeRunner(deps);
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** A batch was submitted here: an idle worker looks for work now rather than at its next poll. */
  wake(): void {
    this.woken = true;
    this.idle?.abort();
  }

  /** Stops taking lines, aborts those in flight (left unanswered, run again later) and gives the lease up. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.wake();
    await this.loop;
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private leaseUntil = () => new Date(Date.now() + this.leaseMs);

  private async run(): Promise<void> {
    while (!this.stopped) {
      const batch = await this.claim();
      if (batch) await this.work(batch);
      else {
        await this.endLeftHolds();
        await this.rest();
      }
    }
  }

  /** Waits for the next poll, a wake or the stop. */
  private async rest(): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return;
    }
    this.idle = new AbortController();
    await sleep(this.pollMs, undefined, { signal: AbortSignal.any([this.idle.signal, this.stopping.signal]) }).catch(() => {});
    this.idle = undefined;
    this.woken = false;
  }

  /** The next batch to work, if any; a store outage is logged once, when it starts. */
  private async claim(): Promise<BatchRecord | undefined> {
    try {
      const batch = await this.deps.batches.claim(this.owner, this.leaseUntil());
      this.claimFailing = false;
      return batch;
    } catch (error) {
      if (!this.claimFailing) this.deps.logger.warn({ err: error }, 'batches: looking for a batch to work failed; trying again every poll');
      this.claimFailing = true;
      return undefined;
    }
  }

  /** Works one leased batch as far as it goes, then gives the lease up. */
  private async work(batch: BatchRecord): Promise<void> {
    let pollAt: Date | undefined;
    try {
      const ending = await this.runLines(batch);
      if (ending === 'wait') pollAt = new Date(Date.now() + (this.settings.nativePollMs ?? 60_000));
      else if (ending) await finalizeBatch(this.deps.batches, this.deps.files, await this.endHold(batch.id), ending);
    } catch (error) {
      this.deps.logger.warn({ err: error, batch_id: batch.id }, 'batches: working a batch failed; it is taken up again');
      // A batch waiting on its providers is taken up again at its next poll, not at once (a provider or key failing keeps failing).
      if (batch.natives?.some((part) => part.state !== 'collected')) pollAt = new Date(Date.now() + (this.settings.nativePollMs ?? 60_000));
      else if (error instanceof HoldPending) pollAt = new Date(Date.now() + this.pollMs);
    } finally {
      await this.deps.batches.release(batch.id, this.owner, pollAt).catch(() => {});
    }
  }

  /** Sorts a batch's lines onto providers' batch APIs once, the first time it is worked; the batch as it is then. */
  private async sortLines(batch: BatchRecord): Promise<BatchRecord | undefined> {
    if (batch.natives !== null) return batch;
    const caller = this.settings.native === false ? undefined : await this.deps.authenticator.callerOfKey(batch.keyId).catch(() => undefined);
    // A revoked key's lines stay on the gateway's path, which answers each 401.
    if (!caller) return this.deps.batches.setNatives(batch.id, this.owner, []);
    return this.native.sort(batch, this.owner, caller);
  }

  /** Polls the batch's native parts (cancelling them first on `stop`); true when none is in flight. */
  private async nativeDone(batch: BatchRecord, stop: boolean): Promise<boolean> {
    if ((batch.natives ?? []).every((part) => part.state === 'collected')) return true;
    const caller = await this.deps.authenticator.callerOfKey(batch.keyId);
    return this.native.advance(batch, this.owner, caller, stop);
  }

  /** Runs the unanswered lines chunk by chunk; how the work ended, or undefined when it stopped (shutdown, lease lost). */
  private async runLines(claimed: BatchRecord): Promise<WorkStop> {
    let batch: BatchRecord | undefined = claimed;
    if (batch.status === 'validating') batch = await this.deps.batches.transition(batch.id, ['validating'], { status: 'in_progress', times: { in_progress_at: Math.floor(Date.now() / 1000) } });
    if (batch?.status === 'in_progress') batch = await this.sortLines(batch);
    while (batch && !this.stopped) {
      if (batch.status === 'cancelling') return (await this.nativeDone(batch, true)) ? 'cancelled' : 'wait';
      if (batch.status === 'finalizing') return 'completed';
      const expired = Date.now() >= batch.expiresAt.getTime();
      if (expired && !(await this.nativeDone(batch, true))) return 'wait';
      const pending = await this.deps.batches.pendingLines(batch.id, this.settings.concurrency);
      if (pending.length === 0) {
        if (!(await this.nativeDone(batch, false))) return 'wait';
        // Lines a provider did not answer are back on the gateway's path.
        if ((await this.deps.batches.pendingLines(batch.id, 1)).length === 0) return 'completed';
        batch = await this.deps.batches.renew(batch.id, this.owner, this.leaseUntil());
        continue;
      }
      if (expired) return this.expire(batch);
      await this.runChunk(batch, pending);
      // Renewing reads the batch again: a cancel or a lost lease is seen between chunks.
      batch = await this.shrinkHold(await this.deps.batches.renew(batch.id, this.owner, this.leaseUntil()));
    }
    return undefined;
  }

  /** Gives back the shares of the batch's budget hold its answered lines made due (docs/operations.md "Batch budget"). */
  private async shrinkHold(batch: BatchRecord | undefined): Promise<BatchRecord | undefined> {
    if (!batch?.hold || batch.hold.ended) return batch;
    const hold = await shrinkBatchHold(this.deps.limiter, batch.id, batch.hold, batch.completed + batch.failed);
    return hold === batch.hold ? batch : this.deps.batches.setHold(batch.id, this.owner, hold);
  }

  /**
   * Ends the batch's budget hold before the batch ends (an ended batch is never worked again):
   * the batch as it is then; throws when the hold could not be given back (the Kv failed), so the
   * batch is taken up again and ended later.
   */
  private async endHold(id: string): Promise<BatchRecord> {
    const batch = await this.deps.batches.renew(id, this.owner, this.leaseUntil());
    if (!batch) throw new Error('batches: the lease was lost before the batch ended');
    if (!batch.hold || batch.hold.ended) return batch;
    const hold = await endBatchHold(this.deps.limiter, batch.id, batch.hold, batch.completed + batch.failed);
    if (!hold.ended) throw new HoldPending();
    const stored = await this.deps.batches.setHold(batch.id, this.owner, hold);
    if (!stored) throw new Error('batches: the lease was lost before the batch ended');
    return stored;
  }

  /**
   * Gives back the holds of batches an instance of the release before the hold (0028) ended: in a
   * rolling deploy it can take up a batch this release created, runs its lines as any, and ends it
   * knowing nothing of the hold. An idle worker ends such holds; two at once give nothing back
   * twice (the Kv's once-only guards), and a Kv failure leaves the hold for the next poll.
   */
  private async endLeftHolds(): Promise<void> {
    if (!this.deps.limiter) return;
    const ended = await this.deps.batches.heldAfterEnd(10).catch(() => []);
    for (const batch of ended) {
      if (!batch.hold) continue;
      const hold = await endBatchHold(this.deps.limiter, batch.id, batch.hold, batch.completed + batch.failed);
      if (hold.ended) await this.deps.batches.setEndedHold(batch.id, hold).catch(() => undefined);
    }
  }

  /** Runs `lines` at once and records each answer as it comes; an answer cut short by a stop, or refused by rate limits, is not recorded. */
  private async runChunk(batch: BatchRecord, lines: readonly BatchLineRecord[]): Promise<void> {
    const caller = await this.deps.authenticator.callerOfKey(batch.keyId).catch((error: unknown) => toGatewayError(error));
    let throttled = false;
    await Promise.all(
      lines.map(async (line) => {
        const answer =
          caller instanceof Error
            ? { line: line.line, statusCode: caller.status, result: { id: batchRequestId(), custom_id: line.customId, response: { status_code: caller.status, request_id: null, body: { error: caller.toBody() } }, error: null } }
            : await runBatchLine(this.deps, { caller, batchId: batch.id, endpoint: batch.endpoint as LineEndpoint, budgetHeld: batch.hold !== null && !batch.hold.ended }, line, this.stopping.signal);
        // A line the limits refused for now (429) stays pending: it runs again after a pause.
        if (answer.statusCode === 429) throttled = true;
        else if (!this.stopped) await this.deps.batches.answerLine(batch.id, answer);
      }),
    );
    if (throttled) await sleep(THROTTLE_PAUSE_MS, undefined, { signal: this.stopping.signal }).catch(() => {});
  }

  /** The lines not run before the completion window ended are answered `batch_expired`. */
  private async expire(batch: BatchRecord): Promise<BatchEnding> {
    for (let pending = await this.deps.batches.pendingLines(batch.id, 1000); pending.length > 0; pending = await this.deps.batches.pendingLines(batch.id, 1000)) {
      for (const line of pending) await this.deps.batches.answerLine(batch.id, expiredLine(line));
    }
    return 'expired';
  }
}

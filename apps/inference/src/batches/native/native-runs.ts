import { type Caller, isProviderError, randomId } from '@svc/core';
import type { BatchLineRecord, BatchRecord, BatchRepository, NativeBatchPart } from '@svc/db';
import { type OrgProviders, type StoringLimiter, type UnitStageDeps, orgProviders, reserveNativePart, settleNativePart } from '@svc/pipeline';
import { type NativeBatchFound, type NativeBatchLine, type NativeBatchRef, type NativeBatches, isBatchKeyGone } from '@svc/providers';
import type { Logger } from '@svc/telemetry';
import { answeredSpend } from './part-spent.js';
import { NATIVE_ENDPOINTS, type PlannedLine, lineOfUpstreamId, planLine, readNativeLine, upstreamId } from './native-line.js';

/** What the native path needs: the unit stages' deps (catalog, providers, keys, ledger), the batches and a limiter that can store a reservation. */
export interface NativeDeps extends Omit<UnitStageDeps, 'limiter'> {
  batches: BatchRepository;
  logger: Logger;
  limiter?: StoringLimiter;
}

/** The most lines one native part holds (and the worker holds in memory while it submits or collects one). */
export const NATIVE_PART_LINES = 5000;
const PAGE = 1000;

/** The part is at its provider as `ref`: polled from now on with the key that submitted it (a candidate found by listing stays `unconfirmed` until its results carry the part id). */
function adopt(part: NativeBatchPart, ref: NativeBatchRef & Partial<Pick<NativeBatchFound, 'confirmed'>>): void {
  Object.assign(part, { upstreamId: ref.id, keyIndex: ref.keyIndex, state: 'in_progress' });
  if (ref.key !== undefined) part.key = ref.key;
  if (ref.confirmed === false) part.unconfirmed = true;
  else delete part.unconfirmed;
}

/** The candidate's results carried no line of the part: it was another batch; the part looks again (never at it) or is submitted again. */
function reject(part: NativeBatchPart): void {
  part.rejected = [...(part.rejected ?? []), part.upstreamId ?? ''];
  for (const field of ['upstreamId', 'key', 'keyIndex', 'unconfirmed'] as const) delete part[field];
  part.state = 'submitting';
}

/** A refusal the provider answered itself (a 4xx but a timeout) accepted nothing; any other failure (5xx, a cut connection) may hide an accepted batch. */
const mayHideBatch = (error: unknown) => !(isProviderError(error) && error.upstreamStatus !== undefined && error.upstreamStatus >= 400 && error.upstreamStatus < 500 && error.upstreamStatus !== 408);

/** One batch's work on the native path, as one worker holding its lease sees it. */
interface Held {
  batch: BatchRecord;
  owner: string;
  caller: Caller;
  org: OrgProviders;
}

interface Group {
  provider: string;
  byok: boolean;
  lines: { line: BatchLineRecord; planned: PlannedLine }[];
}

/**
 * Sends the lines a provider's own batch API can answer to it, in parts of at most
 * {@link NATIVE_PART_LINES}, and records their results (docs/operations.md "Native batches").
 * Every step is written before the next (the part, its lines, the provider's batch id), so a
 * worker taking the batch over after a restart carries on where the last one stopped.
 */
export class NativeRunner {
  constructor(private readonly deps: NativeDeps) {}

  /** Sorts the batch's lines once (the parts are null before): submits the native ones; the others stay on the gateway's path. */
  async sort(batch: BatchRecord, owner: string, caller: Caller): Promise<BatchRecord | undefined> {
    if (batch.natives !== null) return batch;
    if (!NATIVE_ENDPOINTS.includes(batch.endpoint)) return this.deps.batches.setNatives(batch.id, owner, []);
    const held: Held = { batch, owner, caller, org: await orgProviders(this.deps, caller.org.id) };
    const natives: NativeBatchPart[] = [];
    const groups = new Map<string, Group>();
    for (let after = -1; ; ) {
      const page = await this.deps.batches.pendingLines(batch.id, PAGE, after);
      for (const line of page) {
        const planned = planLine(this.deps, held.org, caller, batch.endpoint, line);
        if (!planned) continue;
        const key = `${planned.plan.provider.id}:${planned.plan.byok}`;
        const group = groups.get(key) ?? { provider: planned.plan.provider.id, byok: planned.plan.byok, lines: [] };
        groups.set(key, group);
        group.lines.push({ line, planned });
        if (group.lines.length >= NATIVE_PART_LINES) {
          groups.delete(key);
          await this.submitGroup(held, natives, group);
        }
      }
      if (page.length < PAGE) break;
      after = page.at(-1)!.line;
    }
    for (const group of groups.values()) await this.submitGroup(held, natives, group);
    return this.deps.batches.setNatives(batch.id, owner, natives);
  }

  /** Writes the part and its lines, then submits it; a refused submission gives the lines back to the gateway's path. */
  private async submitGroup(held: Held, natives: NativeBatchPart[], group: Group): Promise<void> {
    const estimate = { tokens: 0, costUsd: 0 };
    for (const { planned } of group.lines) {
      estimate.tokens += planned.plan.estimate.tokens;
      estimate.costUsd += group.byok ? 0 : planned.plan.estimate.costUsd;
    }
    const reservation = await reserveNativePart(this.deps.limiter, held.caller, estimate, held.batch.hold !== null);
    if (reservation === undefined) return;
    const part: NativeBatchPart = { id: `nb_${randomId(20)}`, provider: group.provider, byok: group.byok, state: 'submitting', submittingAt: Math.floor(Date.now() / 1000), lines: group.lines.length, reservation };
    natives.push(part);
    await this.deps.batches.setNatives(held.batch.id, held.owner, natives);
    await this.deps.batches.assignNative(held.batch.id, group.lines.map(({ line }) => line.line), part.id);
    await this.submit(held, natives, part, group.lines);
  }

  /** Submits the part tagged with its id (in every custom id, and the batch's metadata where the provider keeps one); a refusal whose batch the provider did not accept after all gives its lines back to the gateway's path. */
  private async submit(held: Held, natives: NativeBatchPart[], part: NativeBatchPart, lines: Group['lines']): Promise<void> {
    const batches = held.org.providers.get(part.provider)?.batches;
    try {
      if (!batches) throw new Error(`provider ${part.provider} has no batch API`);
      adopt(part, await batches.submit(lines.map(({ line, planned }) => ({ customId: upstreamId(line.line, part.id), request: planned.plan.request })), undefined, part.id));
    } catch (error) {
      // A lost answer (a cut connection, a timeout) may hide an accepted batch: it is looked for before the lines are given back.
      const found = batches && mayHideBatch(error) && (await this.recover(held, part, batches).catch(() => false));
      if (!found) {
        this.deps.logger.warn({ err: error, batch_id: held.batch.id, provider: part.provider }, 'batches: a provider refused a native batch; its lines run through the gateway');
        await this.giveBack(held, part);
      }
    }
    await this.deps.batches.setNatives(held.batch.id, held.owner, natives);
  }

  /** Submits a part again (its submission was cut and no provider batch of it was found): its start and size written first, so a cut here is looked for as the first was. */
  private async resubmit(held: Held, natives: NativeBatchPart[], part: NativeBatchPart): Promise<void> {
    const lines = await this.partLines(held, part);
    Object.assign(part, { submittingAt: Math.floor(Date.now() / 1000), lines: lines.length });
    await this.deps.batches.setNatives(held.batch.id, held.owner, natives);
    await this.submit(held, natives, part, lines);
  }

  /**
   * Looks for the provider batch submitted for a part whose submission was cut (from its
   * `submittingAt` on, of its size): by its id where the provider keeps it, else a candidate no
   * other part holds and this part did not disprove. True when one was found and taken up.
   */
  private async recover(held: Held, part: NativeBatchPart, batches: NativeBatches): Promise<boolean> {
    if (!batches.find || part.submittingAt === undefined) return false;
    const rejected = new Set(part.rejected);
    const skip = async (id: string) => rejected.has(id) || (await this.deps.batches.nativeTaken(part.provider, id));
    const found = await batches.find({ marker: part.id, since: part.submittingAt, requests: part.lines, skip });
    if (!found) return false;
    adopt(part, found);
    this.deps.logger.info({ batch_id: held.batch.id, part_id: part.id, provider: part.provider, upstream_id: found.id, confirmed: found.confirmed }, 'batches: a native batch whose submission was cut was found at its provider; it is polled, not submitted again');
    return true;
  }

  /**
   * Ends the part: its unanswered lines back on the gateway's path, its reservation settled with
   * what its recorded lines were billed, read from the store (so a collection cut by a crash, or a
   * key removed while the results were read, settles what was billed, not 0).
   */
  private async giveBack(held: Held, part: NativeBatchPart): Promise<void> {
    for (let page = await this.deps.batches.nativeLines(held.batch.id, part.id, { after: -1, limit: PAGE }); page.length > 0; page = await this.deps.batches.nativeLines(held.batch.id, part.id, { after: page.at(-1)!.line, limit: PAGE })) {
      await this.deps.batches.assignNative(held.batch.id, page.map((line) => line.line), null);
    }
    const spent = { tokens: 0, costUsd: 0 };
    for (let page = await this.deps.batches.nativeAnswered(held.batch.id, part.id, { after: -1, limit: PAGE }); page.length > 0; page = await this.deps.batches.nativeAnswered(held.batch.id, part.id, { after: page.at(-1)!.line, limit: PAGE })) {
      for (const line of page) {
        const { tokens, costUsd } = answeredSpend(line, part.byok);
        spent.tokens += tokens;
        spent.costUsd += costUsd;
      }
    }
    await settleNativePart(this.deps.limiter, part.reservation, spent);
    part.state = 'collected';
    part.reservation = null;
  }

  /**
   * Polls the batch's parts in flight, collecting those that ended; `stop` (a cancel, the window's
   * end) cancels them at their provider first. True when no part is in flight any more.
   */
  async advance(batch: BatchRecord, owner: string, caller: Caller, stop: boolean): Promise<boolean> {
    const natives = batch.natives ?? [];
    if (natives.every((part) => part.state === 'collected')) return true;
    const held: Held = { batch, owner, caller, org: await orgProviders(this.deps, caller.org.id) };
    let inFlight = false;
    for (const part of natives) {
      if (part.state === 'collected') continue;
      if (!(await this.advancePart(held, natives, part, stop))) inFlight = true;
      await this.deps.batches.setNatives(batch.id, owner, natives);
    }
    return !inFlight;
  }

  /** One part: submitted again if a crash cut its submission, cancelled on `stop`, polled, collected once ended. True once collected. */
  private async advancePart(held: Held, natives: NativeBatchPart[], part: NativeBatchPart, stop: boolean): Promise<boolean> {
    const batches = held.org.providers.get(part.provider)?.batches;
    if (!batches) {
      await this.giveBack(held, part);
      return true;
    }
    // A submission cut by a crash: the provider batch carrying the part's id is taken up if it was accepted, else it is submitted again.
    if (part.state === 'submitting' && !(await this.recover(held, part, batches))) {
      if (stop) await this.giveBack(held, part);
      else await this.resubmit(held, natives, part);
      return (part.state as NativeBatchPart['state']) === 'collected';
    }
    const ref: NativeBatchRef = { id: part.upstreamId ?? '', keyIndex: part.keyIndex ?? 0, ...(part.key === undefined ? {} : { key: part.key }) };
    try {
      return await this.pollPart(held, part, batches, ref, stop);
    } catch (error) {
      if (!isBatchKeyGone(error)) throw error;
      // Its key was removed from the provider's pool: the part can never be polled again, so its lines run through the gateway.
      this.deps.logger.warn({ err: error, batch_id: held.batch.id, part_id: part.id, provider: part.provider }, 'batches: the key that submitted a native batch is no longer configured; its lines run through the gateway');
      await this.giveBack(held, part);
      return true;
    }
  }

  /** Cancels the part on `stop`, polls it and collects it once it ended; true once collected. */
  private async pollPart(held: Held, part: NativeBatchPart, batches: NativeBatches, ref: NativeBatchRef, stop: boolean): Promise<boolean> {
    if (stop && part.state === 'in_progress' && part.unconfirmed) return this.leaveCandidate(held, part, batches, ref);
    if (stop && part.state === 'in_progress') {
      await batches.cancel(ref).catch((error: unknown) => {
        if (isBatchKeyGone(error)) throw error;
        this.deps.logger.warn({ err: error, batch_id: held.batch.id }, 'batches: cancelling a native batch failed');
      });
      part.state = 'cancelling';
    }
    if ((await batches.status(ref)).state !== 'ended') return false;
    return this.collect(held, part, batches.results(ref));
  }

  /**
   * On `stop`, a candidate not yet confirmed is never cancelled (it may be another client's Message
   * Batch on the same key): collected if it ended, else left to run and the part's lines given back.
   */
  private async leaveCandidate(held: Held, part: NativeBatchPart, batches: NativeBatches, ref: NativeBatchRef): Promise<boolean> {
    if ((await batches.status(ref)).state === 'ended') return this.collect(held, part, batches.results(ref));
    this.deps.logger.warn({ batch_id: held.batch.id, part_id: part.id, upstream_id: part.upstreamId }, 'batches: a batch stopped while a native batch found after a cut submission was unconfirmed; it is left to run at its provider, not cancelled');
    await this.giveBack(held, part);
    return true;
  }

  /** The part's unanswered lines with their plans (a line that no longer plans goes back to the gateway's path). */
  private async partLines(held: Held, part: NativeBatchPart): Promise<Group['lines']> {
    const lines: Group['lines'] = [];
    for (let page = await this.deps.batches.nativeLines(held.batch.id, part.id, { after: -1, limit: PAGE }); page.length > 0; page = await this.deps.batches.nativeLines(held.batch.id, part.id, { after: page.at(-1)!.line, limit: PAGE })) {
      for (const line of page) {
        const planned = planLine(this.deps, held.org, held.caller, held.batch.endpoint, line);
        if (planned) lines.push({ line, planned });
        else await this.deps.batches.assignNative(held.batch.id, [line.line], null);
      }
    }
    return lines;
  }

  /**
   * Records every result line carrying the part's id (a line of a part submitted before the part
   * id carries none: taken for a confirmed part only); lines without a result, not run, or failed
   * in a way another model may not are given back to the gateway's path. True once collected; a
   * candidate (`unconfirmed`) none of whose results is the part's is rejected (false).
   */
  private async collect(held: Held, part: NativeBatchPart, results: AsyncIterable<NativeBatchLine>): Promise<boolean> {
    const lines = new Map((await this.partLines(held, part)).map((entry) => [entry.line.line, entry]));
    let own = false;
    for await (const result of results) {
      const named = lineOfUpstreamId(result.customId);
      const ours = named !== undefined && (named.part === part.id || (named.part === undefined && !part.unconfirmed));
      if (!ours) continue;
      own = true;
      const entry = lines.get(named.line);
      if (!entry) continue;
      const outcome = readNativeLine(this.deps, { caller: held.caller, batch: held.batch, line: entry.line, planned: entry.planned }, result);
      if (outcome.kind === 'answer') await this.deps.batches.answerLine(held.batch.id, outcome.answer);
    }
    if (part.unconfirmed && !own) {
      this.deps.logger.warn({ batch_id: held.batch.id, part_id: part.id, upstream_id: part.upstreamId }, 'batches: a native batch found after a cut submission was not the part\'s (its results carry another id); the part looks again or is submitted again');
      reject(part);
      return false;
    }
    delete part.unconfirmed;
    await this.giveBack(held, part);
    return true;
  }
}

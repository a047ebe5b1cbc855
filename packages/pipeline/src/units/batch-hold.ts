import { type Limiter, isReservationState, tokenCostUsd, tokensForChars } from '@svc/billing';
import { type ModelInfo, type ModelKind, isRetired } from '@svc/catalog';
import type { Caller } from '@svc/core';
import type { BatchHold } from '@svc/db';
import { requireAllowedModel } from '../chat/org-policy.js';
import { DEFAULT_COMPLETION_ESTIMATE, type StoringLimiter, reserveMonth } from './native-batch.js';
import type { UnitStageDeps } from './unit-stage.js';

/** At most this many shares before the end: a hold gives its estimate back in steps of `lines / HOLD_STEPS` answered lines. */
export const HOLD_STEPS = 50;

type Price = Pick<ModelInfo, 'inputPricePerMTok' | 'outputPricePerMTok'>;

/**
 * A batch's estimate, a line at a time (docs/operations.md "Batch budget"): each line's prompt
 * as its body's JSON length (one token per 4 characters, the gateway's rough estimate) plus its
 * `max_tokens` / `max_completion_tokens` / `max_output_tokens` (else 1,000; none for
 * embeddings), at the interactive price of the model it names (what a gateway-run line is billed;
 * a native line costs its batch price, less), or where the gateway chooses the model (`svc/auto`,
 * a router alias, a `models` list, a name the catalog does not know) at the highest input and
 * output prices of the models of its kind the caller may use.
 */
export class BatchEstimate {
  tokens = 0;
  costUsd = 0;
  private readonly prices = new Map<string, Price>();
  private ceilingPrice: Price | undefined;
  private readonly kind: ModelKind;

  constructor(
    private readonly deps: Pick<UnitStageDeps, 'catalog'>,
    private readonly caller: Caller,
    endpoint: string,
  ) {
    this.kind = endpoint === '/v1/embeddings' ? 'embedding' : 'chat';
  }

  add(body: Record<string, unknown>): void {
    const promptTokens = tokensForChars(JSON.stringify(body).length);
    const cap = body.max_tokens ?? body.max_completion_tokens ?? body.max_output_tokens;
    const completionTokens = this.kind === 'embedding' ? 0 : typeof cap === 'number' && cap >= 0 ? cap : DEFAULT_COMPLETION_ESTIMATE;
    this.tokens += promptTokens + completionTokens;
    this.costUsd += tokenCostUsd(this.price(body), { promptTokens, completionTokens });
  }

  private price(body: Record<string, unknown>): Price {
    const name = typeof body.model === 'string' && body.models === undefined ? body.model : '';
    let price = this.prices.get(name);
    if (price === undefined) {
      const model = name === '' ? undefined : this.deps.catalog.resolve(name);
      price = model?.kind === this.kind && this.usable(model) ? model : this.ceiling();
      this.prices.set(name, price);
    }
    return price;
  }

  private usable(model: ModelInfo): boolean {
    if (isRetired(model)) return false;
    try {
      requireAllowedModel(this.caller, model);
      return true;
    } catch {
      return false;
    }
  }

  private ceiling(): Price {
    this.ceilingPrice ??= this.deps.catalog
      .list({ kind: this.kind })
      .filter((model) => this.usable(model))
      .reduce((top, model) => ({ inputPricePerMTok: Math.max(top.inputPricePerMTok, model.inputPricePerMTok), outputPricePerMTok: Math.max(top.outputPricePerMTok, model.outputPricePerMTok) }), { inputPricePerMTok: 0, outputPricePerMTok: 0 });
    return this.ceilingPrice;
  }
}

/** Holds a batch's estimate against the caller's month budgets and token quota: the hold, null when nothing is held (no limiter, no limits); throws the spec's 402 when a budget cannot cover it. */
export async function takeBatchHold(limiter: StoringLimiter | undefined, caller: Caller, estimate: { tokens: number; costUsd: number }, lines: number): Promise<BatchHold | null> {
  const reservation = await reserveMonth(limiter, caller, estimate, false);
  if (reservation === null || lines === 0) return null;
  return { reservation, lines, stepLines: Math.max(1, Math.ceil(lines / HOLD_STEPS)), released: 0, ended: false };
}

/** The part of `held` the first `step` steps give back together (whole units; the last step reaches all of it). */
const givenBy = (held: number, hold: BatchHold, step: number) => Math.floor((held * Math.min(lines(hold, step), hold.lines)) / hold.lines);
const lines = (hold: BatchHold, step: number) => step * hold.stepLines;

/**
 * Gives the hold back as lines are answered: one equal share per `stepLines` answered lines, each
 * once (a Kv guard per share, so a share given back before a crash is not given again); the hold
 * as it now stands, to store. A Kv failure leaves the rest for the next call.
 */
export async function shrinkBatchHold(limiter: Pick<Limiter, 'giveBackShare'> | undefined, batchId: string, hold: BatchHold, answered: number): Promise<BatchHold> {
  const state = hold.reservation;
  // A stored reservation not in the limiter's shape cannot be given back in shares: left as it is (its end marks it ended).
  if (!limiter || hold.ended || !isReservationState(state)) return hold;
  const due = Math.min(Math.floor(answered / hold.stepLines), Math.ceil(hold.lines / hold.stepLines));
  let released = hold.released;
  for (; released < due; released++) {
    const share = { id: `${batchId}:${released + 1}`, tokens: givenBy(state.tokens, hold, released + 1) - givenBy(state.tokens, hold, released), micros: givenBy(state.micros, hold, released + 1) - givenBy(state.micros, hold, released) };
    const ok = await limiter.giveBackShare(state, share).then(
      () => true,
      () => false,
    );
    if (!ok) break;
  }
  return released === hold.released ? hold : { ...hold, released };
}

/** Ends the hold once the batch ended (completed, cancelled, expired): the shares due, then the rest, once; the hold to store (`ended`), or as it was when the Kv failed. A stored reservation not in the limiter's shape is ended with nothing given back (it cannot be read). */
export async function endBatchHold(limiter: Pick<Limiter, 'giveBackShare'> | undefined, batchId: string, hold: BatchHold, answered: number): Promise<BatchHold> {
  if (!limiter || hold.ended) return hold;
  const state = hold.reservation;
  if (!isReservationState(state)) return { ...hold, ended: true };
  const now = await shrinkBatchHold(limiter, batchId, hold, answered);
  const share = { id: `${batchId}:end`, tokens: state.tokens - givenBy(state.tokens, now, now.released), micros: state.micros - givenBy(state.micros, now, now.released) };
  const ok = await limiter.giveBackShare(state, share).then(
    () => true,
    () => false,
  );
  return ok ? { ...now, ended: true } : now;
}

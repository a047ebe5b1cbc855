import { type Cost, type Limiter, computeCost, isReservationState, monthLimits, tokenCostUsd, unlimitedReservation } from '@svc/billing';
import { type ModelInfo, atBatchPrices, isRetired } from '@svc/catalog';
import type { Caller, ChatRequest, ChatResult, SvcMetadata, Usage } from '@svc/core';
import type { Provider, ProviderChatRequest } from '@svc/providers';
import { choosesModel } from '@svc/router';
import { requireAllowedModel } from '../chat/org-policy.js';
import { forModel } from '../chat/reasoning-controls.js';
import { estimatePromptTokens } from '../estimate-usage.js';
import type { Exchange } from '../exchange.js';
import { type OrgProviders, type UnitStageDeps, recordUnitUsage } from './unit-stage.js';

/** The completion tokens a line without `max_tokens` is reserved for (the interactive path's default estimate). */
export const DEFAULT_COMPLETION_ESTIMATE = 1000;

/** A batch line its provider's own batch API will answer: the model, what the provider is sent, whose key, and its estimate at the batch price. */
export interface NativeLinePlan {
  /** The catalog's entry (interactive prices); the line is billed at `atBatchPrices(model)`. */
  model: ModelInfo;
  provider: Provider;
  request: ProviderChatRequest;
  /** Served with the organisation's own key: its cost is not held against the budget. */
  byok: boolean;
  estimate: { tokens: number; costUsd: number };
}

/** Whether the request needs a stage of the gateway's own: routing, fallback lists, `svc` options, guardrails, or `n` the provider cannot answer. */
function needsTheGateway(caller: Caller, request: ChatRequest): boolean {
  if (choosesModel(request.model) || request.model.startsWith('svc/')) return true;
  if ((request.models?.length ?? 0) > 0 || request.routingOverride !== undefined || request.routingHints !== undefined || request.svc !== undefined) return true;
  return Boolean(caller.org.guardrails) || caller.guardrails !== undefined;
}

/**
 * How a chat line of a batch goes to its provider's own batch API, or undefined when the gateway
 * runs it (docs/operations.md "Native batches"): the line names one catalog model (no alias, no
 * `models` list, no routing or `svc` options) that the organisation may use, that has a batch
 * price, and whose provider (the organisation's own key first, as interactively) has a batch
 * API; the organisation has no guardrails (they run in the gateway, before the call). A line the
 * gateway would refuse (an unknown, retired or forbidden model) stays on the gateway's path, which answers it.
 */
export function planNativeLine(deps: Pick<UnitStageDeps, 'catalog'>, org: OrgProviders, caller: Caller, request: ChatRequest): NativeLinePlan | undefined {
  if (needsTheGateway(caller, request)) return undefined;
  const model = deps.catalog.resolve(request.model);
  if (model?.kind !== 'chat' || isRetired(model)) return undefined;
  const batchModel = atBatchPrices(model);
  const provider = org.providers.get(model.provider);
  if (!batchModel || !provider?.batches || (request.n > 1 && provider.multipleChoices === false)) return undefined;
  try {
    requireAllowedModel(caller, model);
  } catch {
    return undefined;
  }
  const { routingHints: _hints, routingOverride: _override, svc: _svc, model: _model, ...rest } = forModel(request, model);
  const promptTokens = estimatePromptTokens(request.messages);
  const completionTokens = request.maxTokens ?? DEFAULT_COMPLETION_ESTIMATE;
  return {
    model,
    provider,
    request: { ...rest, stream: false, model: model.upstreamId },
    byok: org.ownKey(model.provider),
    estimate: { tokens: promptTokens + completionTokens, costUsd: tokenCostUsd(batchModel, { promptTokens, completionTokens }) },
  };
}

/** A native line's cost at the batch price, and what it would have cost interactively. */
export function nativeLineCost(model: ModelInfo, usage: Usage): { cost: Cost; interactive: Cost } {
  return { cost: computeCost(atBatchPrices(model) ?? model, usage), interactive: computeCost(model, usage) };
}

/**
 * Records a native line's answer as the interactive path records one: its ledger row (request id
 * and tags from `context`) at the batch price with its interactive price beside it
 * (`interactive_cost_usd`, the batch reports' saving), and its `svc_metadata`, whose baseline is the
 * interactive price (`savings_usd`: what the batch price saved). The budget is settled by the
 * part's reservation, not here.
 */
export function recordNativeLine(deps: UnitStageDeps, context: Exchange, line: { model: ModelInfo; byok: boolean; requestedModel: string; result: ChatResult }): SvcMetadata {
  const usage = line.result.usage ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  const { cost, interactive } = nativeLineCost(line.model, usage);
  const { metadata } = recordUnitUsage(deps, context, unlimitedReservation, {
    model: line.model,
    requestedModel: line.requestedModel,
    costUsd: cost.costUsd,
    byok: line.byok,
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    interactiveCostUsd: interactive.costUsd,
  });
  const saved = Math.max(0, interactive.costUsd - cost.costUsd);
  return { ...metadata, baseline_cost_usd: interactive.costUsd, savings_usd: saved, savings_pct: interactive.costUsd > 0 ? Math.round((saved / interactive.costUsd) * 10_000) / 100 : 0 };
}

/** A limiter whose reservations can be stored (a native part or a batch holds its estimate for hours, across restarts). */
export type StoringLimiter = Pick<Limiter, 'admit' | 'resume' | 'giveBackShare'>;

/**
 * Holds `estimate` against the caller's month budgets and token quota only (a provider's batch
 * queue and a batch's hold use none of the per-minute limits): the reservation to store, null when
 * nothing is held (no limiter, no limits); throws the spec's 402 when a budget cannot cover it.
 * `budgetHeld`: covered by a batch's hold already, so counted and never refused.
 */
export async function reserveMonth(limiter: StoringLimiter | undefined, caller: Caller, estimate: { tokens: number; costUsd: number }, budgetHeld: boolean): Promise<Record<string, unknown> | null> {
  if (!limiter) return null;
  const reservation = await limiter.admit({ orgId: caller.org.id, keyId: caller.keyId, limits: monthLimits(caller), estimatedTokens: estimate.tokens, estimatedCostUsd: estimate.costUsd, budgetHeld });
  return (reservation.held?.() as Record<string, unknown> | undefined) ?? null;
}

/**
 * Holds a native part's estimate (nothing more when its batch holds its budget: the part's
 * reservation then only carries what its lines cost to the month counters): the stored
 * reservation, null when nothing is held, or undefined when the budget refuses it.
 */
export async function reserveNativePart(limiter: StoringLimiter | undefined, caller: Caller, estimate: { tokens: number; costUsd: number }, batchHeld = false): Promise<Record<string, unknown> | null | undefined> {
  return reserveMonth(limiter, caller, batchHeld ? { tokens: 0, costUsd: 0 } : estimate, batchHeld).catch(() => undefined);
}

/** Ends a stored native part reservation with what its lines really used. */
export async function settleNativePart(limiter: StoringLimiter | undefined, stored: Record<string, unknown> | null, spent: { tokens: number; costUsd: number }): Promise<void> {
  if (!limiter || !isReservationState(stored)) return;
  await limiter.resume(stored).settle({ actualTokens: spent.tokens, actualCostUsd: spent.costUsd });
}

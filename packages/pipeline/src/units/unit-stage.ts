import type { Catalog, ModelInfo } from '@svc/catalog';
import { type SvcMetadata, noProviderConfigured } from '@svc/core';
import { type Limiter, type Reservation, callerLimits, unlimitedReservation } from '@svc/billing';
import { type OrgProviders, withOwnKeys } from '@svc/byok';
import type { Provider } from '@svc/providers';
import type { Metrics } from '@svc/telemetry';
import { type BreakerGate, type CallSettings, type ProviderLookup, walkWaterfall } from '../call/call.js';
import { createDeadline, defaultTimeouts, overDeadline } from '../call/deadline.js';
import { countRejection, observeAttempt } from '../call/call-metrics.js';
import type { Exchange } from '../exchange.js';
import type { GatewayDeps } from '../gateway-types.js';
import type { LearnQueue } from '../learn/learn-queue.js';
import { ledgerTags } from '../learn/access-record.js';
import { noSavingsUsage } from '../learn/part-usage.js';

/** What the non-chat stages (embeddings, moderations, speech, images, voice) share. */
export interface UnitStageDeps {
  /** The active catalog: models of configured providers only. */
  catalog: Catalog;
  providers: ProviderLookup;
  learn: Pick<LearnQueue, 'recordUsage'>;
  metrics: Metrics;
  /** Circuit breakers per model slug; absent: every candidate is admitted. */
  breakers?: BreakerGate;
  /** RPM/TPM limits, monthly budget and token quota per organisation; absent: none enforced. */
  limiter?: Pick<Limiter, 'admit'>;
  /** Organisations' own provider keys: used instead of the platform's for their providers, and the answer is attributed `byok`. */
  byok?: GatewayDeps['byok'];
  /** The request deadline and first-byte bounds, as for chat; default 10 minutes / 2 minutes. */
  timeouts?: GatewayDeps['timeouts'];
}


export type { OrgProviders };

export async function orgProviders(deps: UnitStageDeps, orgId: string): Promise<OrgProviders> {
  return withOwnKeys(deps.byok ? await deps.byok.forOrg(orgId) : undefined, deps.providers);
}

/** Admits the request against the organisation's RPM/TPM limits, budget and quota. */
export async function admitUnits(deps: UnitStageDeps, context: Exchange, estimate: { tokens: number; costUsd: number }): Promise<Reservation> {
  if (!deps.limiter) return unlimitedReservation;
  try {
    return await deps.limiter.admit({
      orgId: context.caller.org.id,
      keyId: context.caller.keyId,
      limits: callerLimits(context.caller),
      estimatedTokens: estimate.tokens,
      estimatedCostUsd: estimate.costUsd,
      background: context.background === true,
      budgetHeld: context.budgetHeld === true,
    });
  } catch (error) {
    countRejection(deps.metrics, error);
    throw error;
  }
}

/**
 * One provider call behind the model's circuit breaker (`callCandidates` with one candidate).
 *
 * @throws GatewayError 500 `no_provider_configured` when no provider (platform or the
 *   organisation's own) serves the model; 503 when its breaker is open; the provider's error.
 */
export async function callUnit<T>(
  deps: UnitStageDeps,
  org: OrgProviders,
  model: ModelInfo,
  signal: AbortSignal,
  serve: (provider: Provider) => ((call: UnitCall) => Promise<T>) | undefined,
): Promise<T> {
  return (await callCandidates(deps, org, [model], signal, serve)).result;
}

/** What one provider call of a unit stage is given: its abort signal and the first-byte hook (`CallOptions`). */
export interface UnitCall {
  /** Aborts on the client leaving, the request deadline, or no response headers in time. */
  signal: AbortSignal;
  /** Stops the first-byte timer once the response headers arrived. */
  onResponse: () => void;
}

/**
 * Calls the candidates in order, each behind its model's circuit breaker: the next one when a
 * provider fails in a way another may not (`ProviderError.retryable`), at once for a caller
 * fault. Open breakers skip a candidate; a fault of an organisation's own key never opens the
 * model's shared breaker. `serve` returns the call to make, or undefined when the provider does
 * not serve the endpoint (the candidate is skipped). At most `maxAttempts` calls are made. Like
 * chat, the calls share the request deadline (`timeouts.requestMs`) and each must see its response
 * headers within the provider's first-byte bound, else it is abandoned and the next one tried.
 *
 * @throws the last failure as a GatewayError; 503 `circuit_breaker_open` when every served
 *   candidate's breaker is open; 500 `no_provider_configured` when no provider serves any.
 */
export async function callCandidates<T>(
  deps: UnitStageDeps,
  org: OrgProviders,
  candidates: readonly ModelInfo[],
  signal: AbortSignal,
  serve: (provider: Provider, model: ModelInfo) => ((call: UnitCall) => Promise<T>) | undefined,
  maxAttempts = 4,
): Promise<{ model: ModelInfo; result: T }> {
  const timeouts = deps.timeouts ?? defaultTimeouts;
  const deadline = createDeadline(signal, timeouts.requestMs);
  try {
    return await walkCandidates(deps, org, candidates, { deadline: deadline.signal, firstByteMs: (provider) => timeouts.perProvider?.[provider]?.firstByteMs ?? timeouts.firstByteMs }, serve, maxAttempts);
  } catch (error) {
    throw overDeadline(deadline, error);
  } finally {
    deadline.clear();
  }
}

/** The signals of one unit request: the request deadline's (the client's included) and each provider's first-byte bound. */
interface UnitBounds {
  deadline: AbortSignal;
  firstByteMs: (provider: string) => number;
}

/**
 * The candidates a stage can call (their provider is configured and serves the endpoint), walked
 * by the same waterfall as chat (`walkWaterfall`): one rule for breakers, first-byte bounds and
 * fall-through. A single-model call has no retry of the last candidate and no hedging.
 */
async function walkCandidates<T>(
  deps: UnitStageDeps,
  org: OrgProviders,
  candidates: readonly ModelInfo[],
  bounds: UnitBounds,
  serve: (provider: Provider, model: ModelInfo) => ((call: UnitCall) => Promise<T>) | undefined,
  maxAttempts: number,
): Promise<{ model: ModelInfo; result: T }> {
  const calls = new Map<string, (call: UnitCall) => Promise<T>>();
  for (const model of candidates) {
    const provider = org.providers.get(model.provider);
    const call = provider ? serve(provider, model) : undefined;
    if (call) calls.set(model.id, call);
  }
  const served = candidates.filter((model) => calls.has(model.id));
  if (served.length === 0) throw noProviderConfigured(`No provider key configured for ${candidates[0]?.id ?? 'this model'}.`);
  const settings: CallSettings = {
    providers: org.providers,
    ownKey: org.ownKey,
    observer: { attempt: (model, attempt) => observeAttempt(deps.metrics, model, attempt) },
    maxAttempts,
    signal: bounds.deadline,
    firstByteTimeoutMs: bounds.firstByteMs,
    unitCalls: true,
    ...(deps.breakers ? { breakers: deps.breakers } : {}),
  };
  const { value, model } = await walkWaterfall(served, settings, [], 'headers', (_provider, model, options) =>
    calls.get(model.id)!({ signal: options.signal ?? bounds.deadline, onResponse: options.onResponse ?? (() => {}) }),
  );
  return { model, result: value };
}

/** What a single-model stage answered, for the ledger and the response headers. */
export interface UnitOutcome {
  model: ModelInfo;
  /** What the client asked for (`model`), or the default's slug. */
  requestedModel: string;
  costUsd: number;
  /** Served with the organisation's own key: nothing counts against its budget. */
  byok: boolean;
  /** Text tokens the request carried, where there are any (moderated or embedded texts). */
  promptTokens: number;
  /** Output tokens the upstream billed, where it bills any (GPT image models). Default 0. */
  completionTokens?: number;
  /** `Auto` when the stage chose the model; default `Explicit`. */
  decisionSource?: 'Auto' | 'Explicit';
  /** The estimate the limits were admitted with; default the cost. */
  estimatedCostUsd?: number;
  /** Billed at a batch price: what the request would have cost at interactive prices (its ledger row's `interactive_cost_usd`). */
  interactiveCostUsd?: number;
}

/** One ledger row of a single-model call (or of a platform fee): what `recordUnitRow` writes. */
export interface UnitRow {
  /** The request id, or `<request id>:<part>` for the parts of a request that bills several. */
  requestId: string;
  model: string;
  provider: string;
  costUsd: number;
  promptTokens: number;
  completionTokens?: number;
  latencyMs: number;
  interactiveCostUsd?: number;
}

/** Counts the cost in the metrics and queues the usage-ledger row (off the response path). */
export function recordUnitRow(deps: Pick<UnitStageDeps, 'metrics' | 'learn'>, context: Exchange, row: UnitRow): void {
  deps.metrics.model(row.provider, row.model).costUsd.inc(row.costUsd);
  deps.learn.recordUsage(
    noSavingsUsage({
      requestId: row.requestId,
      caller: context.caller,
      model: row.model,
      provider: row.provider,
      promptTokens: row.promptTokens,
      completionTokens: row.completionTokens ?? 0,
      cachedTokens: 0,
      costUsd: row.costUsd,
      latencyMs: row.latencyMs,
      tags: ledgerTags(context),
      ...(row.interactiveCostUsd === undefined ? {} : { interactiveCostUsd: row.interactiveCostUsd }),
    }),
  );
}

/**
 * Settles the reservation, counts the cost, queues the usage-ledger row and builds the
 * `svc_metadata` and `x-svc-*` headers of a single-model answer.
 */
export function recordUnitUsage(
  deps: UnitStageDeps,
  context: Exchange,
  reservation: Reservation,
  outcome: UnitOutcome,
): { metadata: SvcMetadata; headers: Record<string, string> } {
  const { model, costUsd, byok, promptTokens } = outcome;
  const { mode } = context;
  const completionTokens = outcome.completionTokens ?? 0;
  void reservation.settle({ actualTokens: promptTokens + completionTokens, actualCostUsd: byok ? 0 : costUsd });
  const latencyMs = Math.round(performance.now() - context.startedAt);
  const interactive = outcome.interactiveCostUsd === undefined ? {} : { interactiveCostUsd: outcome.interactiveCostUsd };
  recordUnitRow(deps, context, { requestId: context.requestId, model: model.id, provider: model.provider, costUsd, promptTokens, completionTokens, latencyMs, ...interactive });
  const metadata: SvcMetadata = {
    request_id: context.requestId,
    routing_decision: model.id,
    provider: model.provider,
    tier: model.tier,
    latency_ms: latencyMs,
    requested_model: outcome.requestedModel,
    decision_source: outcome.decisionSource ?? 'Explicit',
    task_family: null,
    cost_usd: costUsd,
    baseline_cost_usd: costUsd,
    savings_usd: 0,
    savings_pct: 0,
    cost_attribution: byok ? 'byok' : 'svc',
    estimated_cost_usd: outcome.estimatedCostUsd ?? costUsd,
    intelligence_mode: mode,
    model: model.id,
  };
  const headers: Record<string, string> = {
    'x-svc-request-id': context.requestId,
    'x-svc-org-id': context.caller.org.id,
    'x-svc-provider': model.provider,
    'x-svc-model': model.id,
    'x-svc-tier-used': model.tier,
    'x-svc-cost-usd': String(costUsd),
    ...(promptTokens > 0 ? { 'x-svc-input-tokens': String(promptTokens) } : {}),
    ...(completionTokens > 0 ? { 'x-svc-output-tokens': String(completionTokens) } : {}),
    'x-svc-cache-hit': 'false',
    'x-svc-intelligence-mode': mode,
    ...reservation.headers,
  };
  return { metadata, headers };
}

import type { Catalog, ModelInfo, ModelKind } from '@svc/catalog';
import { type SvcMetadata, invalidRequest, isGatewayError, isProviderError, noProviderConfigured, toGatewayError } from '@svc/core';
import { type Reservation, organizationLimits } from '@svc/limits';
import type { Provider } from '@svc/providers';
import { allBreakersOpen } from '@svc/resilience';
import type { ProviderLookup } from './call.js';
import type { EmbedDeps } from './embed.js';
import type { RequestContext } from './gateway.js';

/**
 * What the non-chat stages (embeddings, moderations, speech) share: the embed stage's deps but
 * the fallback bound, since moderation and speech models have no siblings to fall back to.
 */
export type UnitStageDeps = Omit<EmbedDeps, 'maxAttempts'>;

/** The providers that serve one organisation: its own keys (BYOK) first, then the platform's. */
export interface OrgProviders {
  providers: ProviderLookup;
  /** Whether `provider` serves with the organisation's own key. */
  ownKey(provider: string): boolean;
}

export async function orgProviders(deps: UnitStageDeps, orgId: string): Promise<OrgProviders> {
  const own = deps.byok ? await deps.byok.forOrg(orgId) : undefined;
  if (!own) return { providers: deps.providers, ownKey: () => false };
  return { providers: { get: (id) => own.get(id) ?? deps.providers.get(id) }, ownKey: (id) => own.get(id) !== undefined };
}

/**
 * The model of `kind` a client named, or the catalog's first one of that kind when it named none.
 *
 * @throws GatewayError 400 `model_not_found` (param `model`) for a model that is not of `kind`;
 *   500 `no_provider_configured` when no model of `kind` is configured at all.
 */
export function resolveUnitModel(catalog: Catalog, requested: string | undefined, kind: ModelKind, what: string): ModelInfo {
  if (requested === undefined) {
    const first = catalog.list({ kind })[0];
    if (!first) throw noProviderConfigured(`No provider key configured for ${what}.`);
    return first;
  }
  const model = catalog.resolve(requested);
  if (model?.kind !== kind) {
    throw invalidRequest(`The model '${requested}' does not exist or is not a ${what} model. GET /v1/models lists the available models.`, 'model', 'model_not_found');
  }
  return model;
}

const unlimited: Reservation = { headers: {}, charge: async () => {}, settle: async () => {}, release: async () => {} };

/** Admits the request against the organisation's RPM/TPM limits, budget and quota. */
export async function admitUnits(deps: UnitStageDeps, context: RequestContext, estimate: { tokens: number; costUsd: number }): Promise<Reservation> {
  if (!deps.limiter) return unlimited;
  try {
    return await deps.limiter.admit({
      orgId: context.caller.org.id,
      keyId: context.caller.keyId,
      limits: organizationLimits(context.caller.org),
      estimatedTokens: estimate.tokens,
      estimatedCostUsd: estimate.costUsd,
    });
  } catch (error) {
    if (isGatewayError(error)) deps.metrics.rateLimitRejections.inc({ scope: error.status === 402 ? (error.code === 'quota_exceeded' ? 'quota' : 'budget') : 'rate' });
    throw error;
  }
}

/**
 * One provider call behind the model's circuit breaker. `serve` returns the call to make, or
 * undefined when the provider does not serve the endpoint.
 *
 * @throws GatewayError 500 `no_provider_configured` when no provider (platform or the
 *   organisation's own) serves the model; 503 when its breaker is open; the provider's error.
 */
export async function callUnit<T>(
  deps: UnitStageDeps,
  org: OrgProviders,
  model: ModelInfo,
  signal: AbortSignal,
  serve: (provider: Provider) => (() => Promise<T>) | undefined,
): Promise<T> {
  const provider = org.providers.get(model.provider);
  const call = provider ? serve(provider) : undefined;
  if (!call) throw noProviderConfigured(`No provider key configured for ${model.id}.`);
  const admission = deps.breakers ? await deps.breakers.allow(model.id) : { allowed: true as const, probe: false };
  if (!admission.allowed) {
    throw allBreakersOpen([{ key: model.id, ...(admission.retryAfterMs === undefined ? {} : { retryAfterMs: admission.retryAfterMs }) }]);
  }
  const started = performance.now();
  try {
    const result = await call();
    deps.metrics.providerDuration.observe({ provider: model.provider, model: model.id, outcome: 'ok' }, (performance.now() - started) / 1000);
    void deps.breakers?.record(model.id, 'success', { probe: admission.probe });
    return result;
  } catch (error) {
    deps.metrics.providerDuration.observe({ provider: model.provider, model: model.id, outcome: 'error' }, (performance.now() - started) / 1000);
    if (isProviderError(error)) deps.metrics.upstreamErrors.inc({ provider: model.provider, kind: error.kind, status: String(error.upstreamStatus ?? 0) });
    // A fault of the organisation's own key says nothing about the model's health for others.
    if (isProviderError(error) && error.retryable && !signal.aborted && !org.ownKey(model.provider)) {
      void deps.breakers?.record(model.id, 'failure', { probe: admission.probe });
    } else if (admission.probe) void deps.breakers?.releaseProbe(model.id);
    throw toGatewayError(error);
  }
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
  /** `Auto` when the stage chose the model; default `Explicit`. */
  decisionSource?: 'Auto' | 'Explicit';
  /** The estimate the limits were admitted with; default the cost. */
  estimatedCostUsd?: number;
}

/** One ledger row of a single-model call (or of a platform fee): what `recordUnitRow` writes. */
export interface UnitRow {
  /** The request id, or `<request id>:<part>` for the parts of a request that bills several. */
  requestId: string;
  model: string;
  provider: string;
  costUsd: number;
  promptTokens: number;
  latencyMs: number;
}

/** Counts the cost in the metrics and queues the usage-ledger row (off the response path). */
export function recordUnitRow(deps: Pick<UnitStageDeps, 'metrics' | 'learn'>, context: RequestContext, row: UnitRow): void {
  deps.metrics.costUsd.inc({ model: row.model, provider: row.provider }, row.costUsd);
  deps.learn.recordUsage({
    requestId: row.requestId,
    orgId: context.caller.org.id,
    keyId: context.caller.keyId,
    model: row.model,
    provider: row.provider,
    promptTokens: row.promptTokens,
    completionTokens: 0,
    cachedTokens: 0,
    costUsd: row.costUsd,
    // The savings baseline is a chat model's price: these endpoints claim no savings against it.
    baselineCostUsd: row.costUsd,
    cacheHit: false,
    latencyMs: row.latencyMs,
    status: 200,
    stream: false,
    createdAt: new Date(),
  });
}

/**
 * Settles the reservation, counts the cost, queues the usage-ledger row and builds the
 * `svc_metadata` and `x-svc-*` headers of a single-model answer.
 */
export function recordUnitUsage(
  deps: UnitStageDeps,
  context: RequestContext,
  reservation: Reservation,
  outcome: UnitOutcome,
): { metadata: SvcMetadata; headers: Record<string, string> } {
  const { model, costUsd, byok, promptTokens } = outcome;
  void reservation.settle({ actualTokens: promptTokens, actualCostUsd: byok ? 0 : costUsd });
  const latencyMs = Math.round(performance.now() - context.startedAt);
  recordUnitRow(deps, context, { requestId: context.requestId, model: model.id, provider: model.provider, costUsd, promptTokens, latencyMs });
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
    intelligence_mode: 'proxy',
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
    'x-svc-cache-hit': 'false',
    ...reservation.headers,
  };
  return { metadata, headers };
}

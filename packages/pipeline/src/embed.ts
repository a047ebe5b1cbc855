import { computeCost } from '@svc/billing';
import type { Catalog, ModelInfo } from '@svc/catalog';
import { type SvcMetadata, invalidRequest, isProviderError, noProviderConfigured, toGatewayError } from '@svc/core';
import type { Limiter } from '@svc/limits';
import type { Provider } from '@svc/providers';
import { allBreakersOpen } from '@svc/resilience';
import type { Metrics } from '@svc/telemetry';
import type { BreakerGate, ProviderLookup } from './call.js';
import { observeProviderError, observeProviderOk } from './call-metrics.js';
import type { GatewayDeps, RequestContext } from './gateway.js';
import type { LearnQueue } from './learn-queue.js';
import { admitUnits, recordUnitUsage } from './unit-stage.js';

/** What the embeddings stage needs; a Runtime provides all of it. */
export interface EmbedDeps {
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
  /** Candidates tried per request at most. Default 4. */
  maxAttempts?: number;
}

/** An embeddings request in canonical names. */
export interface EmbedRequest {
  /** A slug (`openai/text-embedding-3-small`), a bare upstream name, or `auto` / `svc/auto`. */
  model: string;
  /** The texts, at least one; the vectors come back in this order. */
  input: string[];
  /** Vector length; at most the model's own. */
  dimensions?: number;
  user?: string;
}

export interface EmbedResponse {
  /** The slug of the model that answered. */
  model: string;
  /** One vector per input text, in input order. */
  embeddings: Float32Array[];
  usage: { promptTokens: number; totalTokens: number };
  metadata: SvcMetadata;
  /** `x-svc-*` and `x-ratelimit-*` headers for the response. */
  headers: Record<string, string>;
}

const autoNames = new Set(['auto', 'svc/auto']);

/**
 * The embeddings stage: resolve the model, admit against the organisation's limits, call the
 * provider with same-family fallback, price the prompt tokens and queue the ledger row.
 *
 * - `auto` / `svc/auto` is the cheapest configured embedding model (ties: the better quality
 *   prior). Fallback never leaves the family: another family's vectors live in another space.
 * - No cache and no router: embeddings are deterministic per model and priced per input token.
 *
 * @throws GatewayError 400 `model_not_found` (param `model`) when the model is not an embedding
 *   model of the active catalog; 400 (param `dimensions`) above the model's length; 429/402 from
 *   the limits; the provider's error when every candidate failed.
 */
export async function embed(deps: EmbedDeps, request: EmbedRequest, context: RequestContext): Promise<EmbedResponse> {
  const own = deps.byok ? await deps.byok.forOrg(context.caller.org.id) : undefined;
  const providers: ProviderLookup = own ? { get: (id) => own.get(id) ?? deps.providers.get(id) } : deps.providers;
  const primary = resolveEmbeddingModel(deps.catalog, providers, request.model);
  if (request.dimensions !== undefined && primary.dimensions !== undefined && request.dimensions > primary.dimensions) {
    throw invalidRequest(`'dimensions' must be at most ${primary.dimensions} for ${primary.id}.`, 'dimensions');
  }
  const candidates = [primary, ...deps.catalog.family(primary.family).filter((m) => m.kind === 'embedding' && m.id !== primary.id && m.dimensions === primary.dimensions)];
  const estimatedTokens = estimateTokens(request.input);
  const reservation = await admitUnits(deps, context, { tokens: estimatedTokens, costUsd: (estimatedTokens * primary.inputPricePerMTok) / 1e6 });
  let answered: Awaited<ReturnType<typeof callWithFallback>>;
  try {
    answered = await callWithFallback(deps, providers, (id) => own?.get(id) !== undefined, request, candidates, context.signal);
  } catch (error) {
    void reservation.release();
    throw error;
  }
  const { model, result } = answered;
  const usage = { promptTokens: result.usage.promptTokens, completionTokens: 0, totalTokens: result.usage.promptTokens };
  const cost = computeCost(model, usage);
  deps.metrics.model(model.provider, model.id).promptTokens.inc(usage.promptTokens);
  const { metadata, headers } = recordUnitUsage(deps, context, reservation, {
    model,
    requestedModel: request.model,
    costUsd: cost.costUsd,
    byok: own?.get(model.provider) !== undefined,
    promptTokens: usage.promptTokens,
    decisionSource: autoNames.has(request.model) ? 'Auto' : 'Explicit',
    estimatedCostUsd: (estimatedTokens * primary.inputPricePerMTok) / 1e6,
  });
  return { model: model.id, embeddings: result.embeddings, usage: { promptTokens: usage.promptTokens, totalTokens: usage.totalTokens }, metadata, headers };
}

/** The requested embedding model of the active catalog, or the `auto` choice. */
function resolveEmbeddingModel(catalog: Catalog, providers: ProviderLookup, requested: string): ModelInfo {
  const served = (m: ModelInfo) => m.kind === 'embedding' && providers.get(m.provider)?.embed !== undefined;
  if (autoNames.has(requested)) {
    const choice = catalog
      .list({ kind: 'embedding' })
      .filter(served)
      .sort((a, b) => a.inputPricePerMTok - b.inputPricePerMTok || b.qualityPrior - a.qualityPrior)[0];
    if (!choice) throw noProviderConfigured('No configured provider serves embeddings.');
    return choice;
  }
  const model = catalog.resolve(requested);
  if (model?.kind !== 'embedding') {
    throw invalidRequest(
      `The model '${requested}' does not exist or is not an embedding model. GET /v1/models lists the available models.`,
      'model',
      'model_not_found',
    );
  }
  return model;
}

function estimateTokens(input: readonly string[]): number {
  let tokens = 0;
  for (const text of input) tokens += Math.ceil(text.length / 4);
  return tokens;
}

/**
 * Tries the candidates in order: the next one when a provider fails in a way another may not
 * (`ProviderError.retryable`), at once for a caller fault. Open breakers skip a candidate; a
 * fault of an organisation's own key (`ownKey`) never opens the model's shared breaker.
 */
async function callWithFallback(
  deps: EmbedDeps,
  providers: ProviderLookup,
  ownKey: (provider: string) => boolean,
  request: EmbedRequest,
  candidates: readonly ModelInfo[],
  signal: AbortSignal,
) {
  const maxAttempts = deps.maxAttempts ?? 4;
  const skipped: { key: string; retryAfterMs?: number }[] = [];
  let tried = 0;
  let lastError: unknown;
  for (const model of candidates) {
    if (tried >= maxAttempts || signal.aborted) break;
    const provider: Provider | undefined = providers.get(model.provider);
    if (!provider?.embed) continue;
    const admission = deps.breakers ? await deps.breakers.allow(model.id) : { allowed: true as const, probe: false };
    if (!admission.allowed) {
      skipped.push({ key: model.id, ...(admission.retryAfterMs === undefined ? {} : { retryAfterMs: admission.retryAfterMs }) });
      continue;
    }
    tried++;
    const started = performance.now();
    try {
      const result = await provider.embed(
        {
          model: model.upstreamId,
          input: request.input,
          ...(request.dimensions === undefined ? {} : { dimensions: request.dimensions }),
          ...(request.user === undefined ? {} : { user: request.user }),
        },
        { signal },
      );
      observeProviderOk(deps.metrics, model, (performance.now() - started) / 1000);
      void deps.breakers?.record(model.id, 'success', { probe: admission.probe });
      return { model, result };
    } catch (error) {
      lastError = error;
      observeProviderError(deps.metrics, model, (performance.now() - started) / 1000, error);
      const upstreamFault = isProviderError(error) && error.retryable && !signal.aborted;
      const sharedFault = upstreamFault && !ownKey(model.provider);
      if (sharedFault) void deps.breakers?.record(model.id, 'failure', { probe: admission.probe });
      else if (admission.probe) void deps.breakers?.releaseProbe(model.id);
      if (!upstreamFault) throw toGatewayError(error);
    }
  }
  if (lastError !== undefined) throw toGatewayError(lastError);
  if (skipped.length > 0) throw allBreakersOpen(skipped);
  throw noProviderConfigured(`No configured provider serves embeddings with ${candidates[0]?.id ?? 'this model'}.`);
}

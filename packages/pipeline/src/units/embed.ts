import { computeCost, tokenCostUsd, tokensForChars } from '@svc/billing';
import type { Catalog, ModelInfo } from '@svc/catalog';
import { type SvcMetadata, invalidRequest, noProviderConfigured } from '@svc/core';
import type { EmbeddingRequest, EmbeddingResult } from '@svc/providers';
import type { ProviderLookup } from '../call/call.js';
import type { Exchange } from '../exchange.js';
import { type UnitStageDeps, admitUnits, callCandidates, orgProviders, recordUnitUsage } from './unit-stage.js';
import { requireAllowedModel } from '../chat/org-policy.js';
import { choosesModel, embeddingModel } from '@svc/router';
import { admitAttributes, embeddingAttributes, stageSpan, traced } from '../stage-spans.js';

/** What the embeddings stage needs (a Runtime provides all of it): the non-chat stages' deps, and how many candidates an embedding may fall back through. */
export interface EmbedDeps extends UnitStageDeps {
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


/**
 * The embeddings stage: resolve the model, admit against the organisation's limits, call the
 * provider with same-family fallback, price the prompt tokens and queue the ledger row.
 *
 * - `auto` / `svc/auto` is the cheapest configured embedding model (ties: the better quality
 *   prior). Fallback never leaves the family: another family's vectors live in another space.
 * - No cache and no router: embeddings are deterministic per model and priced per input token.
 *
 * @throws GatewayError 404 `model_not_found` (param `model`) when the model is not an embedding
 *   model of the active catalog; 400 (param `dimensions`) above the model's length; 429/402 from
 *   the limits; the provider's error when every candidate failed.
 */
export async function embed(deps: EmbedDeps, request: EmbedRequest, context: Exchange): Promise<EmbedResponse> {
  const org = await orgProviders(deps, context.caller.org.id);
  const primary = requireAllowedModel(context.caller, embeddingModel(deps.catalog, request.model, (m) => org.providers.get(m.provider)?.embed !== undefined));
  if (request.dimensions !== undefined && primary.dimensions !== undefined && request.dimensions > primary.dimensions) {
    throw invalidRequest(`'dimensions' must be at most ${primary.dimensions} for ${primary.id}.`, 'dimensions');
  }
  const candidates = [primary, ...deps.catalog.family(primary.family).filter((m) => m.kind === 'embedding' && m.id !== primary.id && m.dimensions === primary.dimensions)];
  const estimatedTokens = estimateTokens(request.input);
  const admission = admitUnits(deps, context, { tokens: estimatedTokens, costUsd: tokenCostUsd(primary, { promptTokens: estimatedTokens }) });
  const reservation = await traced(stageSpan(context.trace, 'svc.stage.admit'), admission, admitAttributes, estimatedTokens);
  let answered: { model: ModelInfo; result: EmbeddingResult };
  try {
    const span = stageSpan(context.trace, 'svc.stage.call');
    const call = callCandidates(
      deps,
      org,
      candidates,
      context.signal,
      (provider, model) => {
        const embed = provider.embed?.bind(provider);
        return embed && ((call) => embed(embeddingCall(model, request), call));
      },
      deps.maxAttempts,
    );
    answered = await traced(span, call, embeddingAttributes, request.model);
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
    byok: org.ownKey(model.provider),
    promptTokens: usage.promptTokens,
    decisionSource: choosesModel(request.model) ? 'Auto' : 'Explicit',
    estimatedCostUsd: tokenCostUsd(primary, { promptTokens: estimatedTokens }),
  });
  return { model: model.id, embeddings: result.embeddings, usage: { promptTokens: usage.promptTokens, totalTokens: usage.totalTokens }, metadata, headers };
}

function estimateTokens(input: readonly string[]): number {
  let tokens = 0;
  for (const text of input) tokens += tokensForChars(text.length);
  return tokens;
}

/** The provider's call for one candidate: its upstream name, the options the request sets. */
function embeddingCall(model: ModelInfo, request: EmbedRequest): EmbeddingRequest {
  const call: EmbeddingRequest = { model: model.upstreamId, input: request.input };
  if (request.dimensions !== undefined) call.dimensions = request.dimensions;
  if (request.user !== undefined) call.user = request.user;
  return call;
}

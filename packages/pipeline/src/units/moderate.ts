import { tokenCostUsd, tokensForChars } from '@svc/billing';
import type { ModerationRequest, ModerationResult } from '@svc/providers';
import type { Exchange } from '../exchange.js';
import { type UnitStageDeps, admitUnits, callUnit, orgProviders, recordUnitUsage } from './unit-stage.js';
import { requireAllowedModel } from '../chat/org-policy.js';
import { unitModel } from '@svc/router';

/** A moderations request: one text, several, or one multimodal input. */
export interface ModerateRequest {
  /** A slug or bare upstream name; absent: the catalog's default moderation model. */
  model?: string;
  input: ModerationRequest['input'];
}

export interface ModerateResponse {
  /** The upstream's answer, passed through (`id`, `model`, `results`). */
  moderation: ModerationResult;
  /** `x-svc-*` and `x-ratelimit-*` headers for the response. */
  headers: Record<string, string>;
}

/**
 * The moderations stage: resolve the moderation model (the catalog's first when none is named),
 * admit against the organisation's limits, call the provider with the organisation's own key
 * when it has one, else the platform's, and queue the ledger row. Moderation is free (cost 0).
 *
 * @throws GatewayError 404 `model_not_found` (param `model`); 500 `no_provider_configured`
 *   when no key serves moderations; 429/402 from the limits; the provider's error.
 */
export async function moderate(deps: UnitStageDeps, request: ModerateRequest, context: Exchange): Promise<ModerateResponse> {
  const org = await orgProviders(deps, context.caller.org.id);
  const model = requireAllowedModel(context.caller, unitModel(deps.catalog, request.model, 'moderation', 'moderation'));
  const promptTokens = estimateTokens(request.input);
  const reservation = await admitUnits(deps, context, { tokens: promptTokens, costUsd: 0 });
  let moderation: ModerationResult;
  try {
    moderation = await callUnit(deps, org, model, context.signal, (provider) => {
      const call = provider.moderate?.bind(provider);
      return call && ((options) => call({ model: model.upstreamId, input: request.input }, options));
    });
  } catch (error) {
    void reservation.release();
    throw error;
  }
  const { headers } = recordUnitUsage(deps, context, reservation, {
    model,
    requestedModel: request.model ?? model.id,
    // Moderation models are free; a priced one would carry input token prices.
    costUsd: tokenCostUsd(model, { promptTokens }),
    byok: org.ownKey(model.provider),
    promptTokens,
  });
  return { moderation, headers };
}

function estimateTokens(input: ModerationRequest['input']): number {
  if (typeof input === 'string') return tokensForChars(input.length);
  let tokens = 0;
  for (const item of input) tokens += tokensForChars(typeof item === 'string' ? item.length : item.type === 'text' ? item.text.length : 0);
  return tokens;
}

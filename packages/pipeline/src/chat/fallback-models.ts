import { type ChatRequest, isGatewayError, modelNotFound } from '@svc/core';
import type { RoutingDecision } from '../learn/decision-log.js';
import type { RouteOne } from './access-routing.js';

/** Fallback models per explicit model, from the deployment's configuration (`models[].fallbacks`), keyed by catalog slug. */
export type ConfiguredFallbacks = Readonly<Record<string, readonly string[]>>;

/**
 * The models to try once the decision's own waterfall failed: the request's `models` (OpenRouter's
 * fallback list), else, for an explicit model, its configured fallbacks. Routed requests (aliases)
 * walk their pool and take only the request's list.
 */
function fallbackNames(request: ChatRequest, decision: RoutingDecision, configured: ConfiguredFallbacks): readonly string[] | undefined {
  if (request.models) return request.models;
  return decision.source === 'Router' ? undefined : configured[decision.model.id];
}

/**
 * The decision with its fallback models appended to the waterfall, each routed as the request
 * would be with that `model` (an explicit one brings its same-family siblings and obeys the
 * organisation's policies and the caller's model access; an alias its pool), so a fallback is tried only after the pinned model
 * and its own provider waterfall failed. Models already in the waterfall are not repeated.
 *
 * @throws GatewayError 404 `model_not_found` naming `models[i]` for a name the catalog lacks.
 */
export function withFallbacks(route: RouteOne, request: ChatRequest, decision: RoutingDecision, configured: ConfiguredFallbacks): RoutingDecision {
  const names = fallbackNames(request, decision, configured);
  if (!names || names.length === 0) return decision;
  const waterfall = [...decision.waterfall];
  const seen = new Set(waterfall.map((m) => m.id));
  const fallbacks: string[] = [];
  const { routingOverride: _override, models: _models, ...plain } = request;
  names.forEach((name, index) => {
    const routed = routeFallback(route, { ...plain, model: name }, request.models ? `models[${index}]` : 'model');
    if (routed.model.id === decision.model.id || fallbacks.includes(routed.model.id)) return;
    fallbacks.push(routed.model.id);
    for (const model of routed.waterfall) {
      if (seen.has(model.id)) continue;
      seen.add(model.id);
      waterfall.push(model);
    }
  });
  return fallbacks.length === 0 ? decision : { ...decision, waterfall, fallbacks };
}

function routeFallback(route: RouteOne, request: ChatRequest, param: string): RoutingDecision {
  try {
    return route(request, param);
  } catch (error) {
    if (isGatewayError(error) && error.code === 'model_not_found') throw modelNotFound(`The fallback model '${request.model}' does not exist or is not available. GET /v1/models lists the available models.`, param);
    throw error;
  }
}

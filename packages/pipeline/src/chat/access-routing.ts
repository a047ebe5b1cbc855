import type { Catalog } from '@svc/catalog';
import { type ChatRequest, isGatewayError, modelNotAllowed } from '@svc/core';
import type { RouteContext, Router } from '@svc/router';
import type { RoutingDecision } from '../learn/decision-log.js';
import type { CallerModelAccess } from './model-access.js';

/** Routes one request (its `model`, or one fallback named by `param`) as the caller may: the router's decision, checked and trimmed. */
export type RouteOne = (request: ChatRequest, param: string) => RoutingDecision;

/**
 * A router bounded by the caller's model access: an alias the lists refuse is refused before
 * routing; alias routing picks only among the models the caller may use (the router's
 * `candidates`); an explicit model (or `force_model`) the lists refuse is 403
 * `model_not_allowed` naming it; the waterfall keeps only models the caller may use. Without
 * lists, the router as it is.
 */
export function accessRouting(router: Router, catalog: Catalog, access: CallerModelAccess | undefined, context: RouteContext): RouteOne {
  if (!access) return (request) => router.route(request, context);
  const bounded: RouteContext = { ...context, candidates: access.candidates(catalog) };
  return (request, param) => {
    access.checkAlias(request.model, param);
    const decision = routeBounded(router, request, bounded);
    if (decision.source !== 'Router' && decision.source !== 'Sticky') {
      const forced = request.routingOverride?.forceModel;
      access.checkModel(decision.model, forced ?? request.model, forced === undefined ? param : 'routing_override.force_model');
    }
    const waterfall = decision.waterfall.filter((model) => access.permits(model));
    return waterfall.length === decision.waterfall.length ? decision : { ...decision, waterfall };
  };
}

/** The router's decision; when no model the caller may use is left for an alias, a 403 that says so. */
function routeBounded(router: Router, request: ChatRequest, context: RouteContext): RoutingDecision {
  try {
    return router.route(request, context);
  } catch (error) {
    if (!isGatewayError(error) || error.code !== 'no_eligible_model') throw error;
    const allowed = context.candidates ?? [];
    const which = allowed.length === 0 ? 'allows no available model' : `allows only ${allowed.slice(0, 5).join(', ')}${allowed.length > 5 ? ` and ${allowed.length - 5} more` : ''}, none of which can serve it`;
    throw modelNotAllowed(`No model this API key may use can serve '${request.model}' for this request: its or its organisation's model_access ${which}.`, 'model');
  }
}

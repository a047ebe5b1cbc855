import { type ChatRequest, type IntelligenceMode, isGatewayError } from '@svc/core';
import type { LatencyStats, MemorySignals, RouteContext, Router } from '@svc/router';
import type { RoutingDecision } from '../learn/decision-log.js';
import type { Exchange } from '../exchange.js';
import type { GatewayDeps } from '../gateway-types.js';
import { accessRouting } from './access-routing.js';
import { type ConfiguredFallbacks, withFallbacks } from './fallback-models.js';
import { CallerModelAccess } from './model-access.js';

/**
 * Stage 3 for chat: the router over the request, with the live latencies and open breakers, the
 * organisation's free-models policy, a chain's sticky model and step limits, (full mode) the
 * caller's memory features, the caller's model access (`model_access` of its key and
 * organisation: refused models and aliases, candidates limited) and the fallback models (request
 * `models`, else configured) after the decision's own waterfall.
 */
export class ChatRouting {
  /**
   * Route contexts by mode and org policy, built once, indexed by bits: 1 proxy mode, 2 free
   * models only, 4 pass-through off.
   */
  private readonly contexts: readonly RouteContext[];

  constructor(
    private readonly router: Router,
    latency: LatencyStats,
    private readonly deps: Pick<GatewayDeps, 'breakers' | 'sticky' | 'chains' | 'fallbacks' | 'catalog' | 'byok'>,
  ) {
    const breakers = deps.breakers;
    const live: RouteContext = {
      latencyMs: (id) => latency.get(id),
      ...(breakers?.knownOpen ? { breakerOpen: (id: string) => breakers.knownOpen!(id) } : {}),
    };
    const contexts: RouteContext[] = [];
    for (let bits = 0; bits < 8; bits++) {
      const orgPolicy = { ...(bits & 2 ? { freeModelsOnly: true } : {}), ...(bits & 4 ? { passThrough: false } : {}) };
      // Proxy mode routes on the structural features only (spec §Intelligence modes: the small vector).
      contexts.push({ ...live, ...(bits & 1 ? { textFeatures: false } : {}), ...(bits > 1 ? { orgPolicy } : {}) });
    }
    this.contexts = contexts;
  }

  /** Routes without waiting unless the chain needs the shared store (sticky model, step limits). */
  route(request: ChatRequest, exchange: Exchange): RoutingDecision | Promise<RoutingDecision> {
    const svc = request.svc;
    const { sticky, chains } = this.deps;
    const context = this.context(exchange, exchange.mode);
    const stickyKey = sticky && request.routingHints?.chainRouting !== 'mixed' ? (svc?.chainId ?? svc?.conversationId) : undefined;
    if (stickyKey === undefined && !(chains && svc?.chainId !== undefined)) {
      try {
        return this.decide(request, exchange, context);
      } catch (error) {
        return this.withOwnKey(request, exchange, context, error);
      }
    }
    return this.routeChain(request, exchange, stickyKey, context);
  }

  /**
   * After a refusal of an explicit `<provider>/<model>` the gateway does not serve: routed again
   * when the organisation holds its own key for that provider (BYOK-only providers pass through
   * with the organisation's key). Only refusals pay the key lookup; any other error is rethrown.
   */
  private async withOwnKey(request: ChatRequest, exchange: Exchange, context: RouteContext, error: unknown): Promise<RoutingDecision> {
    const slash = request.model.indexOf('/');
    if (!isGatewayError(error) || error.code !== 'model_not_found' || slash <= 0 || !this.deps.byok) throw error;
    const provider = request.model.slice(0, slash);
    const own = await this.deps.byok.forOrg(exchange.caller.org.id);
    if (own?.get(provider) === undefined) throw error;
    return this.decide(request, exchange, { ...context, ownProviders: new Set([provider]) });
  }

  /**
   * After a cache miss, in cache and full modes: the router decides again with what the turn has
   * learned since, the request's sentence embedding (the learned quality model reads it) and, in
   * full mode, the memory features (the spec's "memory router cascade"). Synchronous; a chain
   * keeps its sticky model and is not counted twice.
   */
  again(request: ChatRequest, exchange: Exchange, decision: RoutingDecision, learned: { memory?: MemorySignals; embedding?: Float32Array }): RoutingDecision {
    const base = this.context(exchange, learned.memory ? 'full' : exchange.mode);
    const context: RouteContext = {
      ...base,
      ...(learned.memory ? { memory: learned.memory } : {}),
      ...(learned.embedding ? { embedding: learned.embedding } : {}),
      ...(decision.source === 'Sticky' ? { stickyModel: decision.model.id } : {}),
    };
    try {
      return this.decide(request, exchange, context);
    } catch (error) {
      // A name the first decision served with the organisation's own key (`withOwnKey`) stays so.
      if (decision.source !== 'Pinned' || !isGatewayError(error) || error.code !== 'model_not_found') throw error;
      return this.decide(request, exchange, { ...context, ownProviders: new Set([decision.model.provider]) });
    }
  }

  /** The router's decision within the caller's model access, its waterfall followed by the fallback models'. */
  private decide(request: ChatRequest, exchange: Exchange, context: RouteContext): RoutingDecision {
    const route = accessRouting(this.router, this.deps.catalog, CallerModelAccess.of(exchange.caller), context);
    return withFallbacks(route, request, route(request, 'model'), this.fallbacks);
  }

  private get fallbacks(): ConfiguredFallbacks {
    return this.deps.fallbacks ?? noFallbacks;
  }

  /** The shared context of the caller's mode and policy, with its organisation when the router has a per-task learner to ask. */
  private context(exchange: Exchange, mode: IntelligenceMode): RouteContext {
    const { org } = exchange.caller;
    const shared = this.contexts[(mode === 'proxy' ? 1 : 0) + (org.freeModelsOnly === true ? 2 : 0) + (org.passThroughModels === false ? 4 : 0)]!;
    return this.router.learner ? { ...shared, orgId: org.id } : shared;
  }

  private async routeChain(request: ChatRequest, exchange: Exchange, stickyKey: string | undefined, context: RouteContext): Promise<RoutingDecision> {
    const orgId = exchange.caller.org.id;
    const stickyModel = stickyKey === undefined ? undefined : await this.deps.sticky!.get(orgId, stickyKey);
    const decision = this.decide(request, exchange, stickyModel === undefined ? context : { ...context, stickyModel });
    const { chains } = this.deps;
    if (chains?.applies(request, decision.workflowType)) await chains.check(orgId, request);
    return decision;
  }
}

const noFallbacks: ConfiguredFallbacks = {};


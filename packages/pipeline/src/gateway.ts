import type { Catalog, ModelInfo } from '@svc/catalog';
import type { Caller, ChatRequest } from '@svc/core';
import { createOutputVerifier } from '@svc/healing';
import { type Router, createLatencyStats, createRouter } from '@svc/router';
import { ChatRouting } from './chat/chat-routing.js';
import { callStage, cacheStage, outboundStage, type StageOwner } from './chat/chat-stages.js';
import type { ChatTurn } from './chat/chat-turn.js';
import { compose } from './chat/compose.js';
import { GUARDRAILS_HEADER, TurnGuardrails, guardrailsOf } from './chat/guardrail-stage.js';
import { openTurn } from './chat/open-turn.js';
import type { Exchange } from './exchange.js';
import type { ChatResponse, GatewayDeps } from './gateway-types.js';
import { LearnRecorder } from './learn/learn-records.js';
import { routeAttributes, stageSpan, traced } from './stage-spans.js';
import { offerForShadow } from './shadow/shadow-offer.js';

export type { ChatJsonResponse, ChatResponse, ChatStreamResponse, Exchange, GatewayDeps, GatewayTimeouts } from './gateway-types.js';
export { replicateChoices } from './chat/replicate-choices.js';

/**
 * The six stages for chat, protocol-neutral: (1) authenticate happened in the app, which resolved
 * the request into an `Exchange`; `openTurn` adds governance, routing and admission; then the
 * stages `(turn, next)` composed like Hono's middleware: (2) cache (`cacheStage`: a hit answers),
 * (3) route again with the embedding and memory and inject it (`outboundStage`), (4) call with
 * waterfall fallback (`callStage`: JSON or a stream); (5) deliver and (6) learn in `finish`, for
 * JSON, streams and cache hits alike. Cleanup is in one place: the request's spend is ended once,
 * here in `finally`, or by a stream when it ends.
 */
export class Gateway {
  private readonly owner: StageOwner;
  private readonly stages: (turn: ChatTurn) => Promise<ChatResponse>;
  private readonly router: Router;

  constructor(private readonly deps: GatewayDeps) {
    const routerLatency = deps.routerLatency ?? createLatencyStats();
    const router = deps.router ?? createRouter({ catalog: deps.catalog, latency: routerLatency });
    this.router = router;
    this.owner = {
      deps,
      routing: new ChatRouting(router, routerLatency, deps),
      recorder: new LearnRecorder(deps),
      verifier: deps.verifier ?? createOutputVerifier(),
      overhead: deps.metrics.gatewayOverhead.series('chat'),
      streamOverhead: deps.metrics.gatewayOverhead.series('chat_stream'),
      maxAttempts: deps.maxAttempts ?? 4,
      routerLatency,
    };
    this.stages = compose([cacheStage(this.owner), outboundStage(this.owner), callStage(this.owner)]);
  }

  get catalog(): Catalog {
    return this.deps.catalog;
  }

  /** Models clients named as `<provider>/<model>` that the catalog does not list, forwarded so far on this instance. */
  passedThrough(): readonly ModelInfo[] {
    return this.router.passedThrough();
  }

  /**
   * The chat model an explicit name is served as for `org`, as `/v1/messages` would serve it (for
   * `count_tokens`): a catalog model, a name passed through to a configured provider unless the
   * organisation turned pass-through off, or one of a provider only its own key configures.
   */
  async namedChatModel(requested: string, org: Pick<Caller['org'], 'id' | 'passThroughModels'>): Promise<ModelInfo | undefined> {
    const found = this.router.named(requested);
    if (found) return found.kind === 'chat' && (found.source !== 'passthrough' || org.passThroughModels !== false) ? found : undefined;
    const slash = requested.indexOf('/');
    if (slash <= 0 || org.passThroughModels === false) return undefined;
    const provider = requested.slice(0, slash);
    const own = await this.deps.byok?.forOrg(org.id);
    return own?.get(provider) === undefined ? undefined : this.router.named(requested, new Set([provider]));
  }

  /** Not async itself: a caller without guardrails goes straight to the answer, with no promise of its own. */
  chat(request: ChatRequest, exchange: Exchange): Promise<ChatResponse> {
    const checks = guardrailsOf(exchange.caller);
    if (checks === undefined) return this.answer(request, exchange, undefined);
    return this.guarded(request, exchange, new TurnGuardrails(checks, this.deps, exchange));
  }

  /**
   * A request under guardrails: the before-call checks refuse it or redact what the providers
   * (and the cache, memory and shadow judging) see; the after-answer checks run inside the answer
   * (JSON before it is finished, a stream before its last event); the decisions ride on a header.
   */
  private async guarded(request: ChatRequest, exchange: Exchange, guardrails: TurnGuardrails): Promise<ChatResponse> {
    const sent = await guardrails.beforeCall(request);
    // A cached answer was never checked for this caller: look up none (answers that passed are still stored).
    if (guardrails.checksAnswer && exchange.cacheDirective === undefined) exchange.cacheDirective = 'no-cache';
    const response = await this.answer(sent, exchange, guardrails);
    return { ...response, headers: { ...response.headers, [GUARDRAILS_HEADER]: guardrails.header() } };
  }

  private async answer(request: ChatRequest, exchange: Exchange, guardrails: TurnGuardrails | undefined): Promise<ChatResponse> {
    const turn = await traced(stageSpan(exchange.trace, 'svc.stage.route'), openTurn(this.deps, this.owner.routing, request, exchange, guardrails), routeAttributes, undefined);
    try {
      const response = await this.stages(turn);
      if (response.kind === 'json') offerForShadow(this.deps, request, exchange, response);
      return response;
    } finally {
      if (!turn.streamOwnsEnding) turn.spend.end();
    }
  }
}

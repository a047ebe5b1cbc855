import type { Catalog, ModelInfo } from '@svc/catalog';
import type { ChatRequest } from '@svc/core';
import { type OutputVerifier, createOutputVerifier } from '@svc/healing';
import { type LatencyStats, createLatencyStats, createRouter } from '@svc/router';
import type { HistogramSeries } from '@svc/telemetry';
import { openStream } from './call/call.js';
import { answerFromCache } from './chat/cache-answer.js';
import { planCalls } from './chat/call-plan.js';
import { ChatRouting } from './chat/chat-routing.js';
import type { ChatTurn } from './chat/chat-turn.js';
import { answerJson } from './chat/json-answer.js';
import { openTurn } from './chat/open-turn.js';
import { type Outbound, prepareOutbound } from './chat/outbound.js';
import type { CacheMiss } from './chat/cache-stage.js';
import type { Exchange } from './exchange.js';
import type { ChatResponse, GatewayDeps } from './gateway-types.js';
import { LearnRecorder } from './learn/learn-records.js';
import { speculationDraft } from './chat/speculation.js';
import { answerAttributes, cacheAttributes, memoryAttributes, openedAttributes, planAttributes, routeAttributes, stageSpan, traced } from './stage-spans.js';
import { streamResponse } from './stream/stream-response.js';
import { runs } from './switches/switches.js';

export type { ChatJsonResponse, ChatResponse, ChatStreamResponse, Exchange, GatewayDeps, GatewayTimeouts } from './gateway-types.js';
export { replicateChoices } from './chat/replicate-choices.js';

/**
 * The six stages for chat, protocol-neutral, each a function of the turn: (1) authenticate
 * happened in the app, which resolved the request into an `Exchange`; `openTurn` adds governance,
 * routing and admission; (2) cache (`answerFromCache`); (3) route again with memory and inject it
 * (`prepareOutbound`); (4) call with waterfall fallback (`planCalls`, then `answerJson` or a
 * stream); (5) deliver and (6) learn in `finish`, for JSON and streams alike. The request's spend
 * is ended once: here in `finally`, or by a stream when it ends.
 */
export class Gateway {
  private readonly maxAttempts: number;
  private readonly routing: ChatRouting;
  private readonly routerLatency: LatencyStats;
  private readonly verifier: OutputVerifier;
  private readonly recorder: LearnRecorder;
  private readonly overhead: HistogramSeries;
  private readonly streamOverhead: HistogramSeries;

  constructor(private readonly deps: GatewayDeps) {
    this.overhead = deps.metrics.gatewayOverhead.series('chat');
    this.streamOverhead = deps.metrics.gatewayOverhead.series('chat_stream');
    this.maxAttempts = deps.maxAttempts ?? 4;
    this.verifier = deps.verifier ?? createOutputVerifier();
    this.recorder = new LearnRecorder(deps);
    this.routerLatency = deps.routerLatency ?? createLatencyStats();
    const router = deps.router ?? createRouter({ catalog: deps.catalog, latency: this.routerLatency });
    this.routing = new ChatRouting(router, this.routerLatency, deps);
  }

  get catalog(): Catalog {
    return this.deps.catalog;
  }

  async chat(request: ChatRequest, exchange: Exchange): Promise<ChatResponse> {
    const { trace } = exchange; // undefined when tracing is off: every stage span below is then skipped
    const turn = await traced(stageSpan(trace, 'svc.stage.route'), openTurn(this.deps, this.routing, request, exchange), routeAttributes, undefined);
    let streaming = false;
    try {
      const cached = await traced(stageSpan(trace, 'svc.stage.cache'), answerFromCache({ deps: this.deps, catalog: this.deps.catalog, recorder: this.recorder }, turn), cacheAttributes, undefined);
      if ('response' in cached) return cached.response;
      const outbound = await traced(stageSpan(trace, 'svc.stage.memory'), prepareOutbound(this.deps, this.routing, turn), memoryAttributes, turn);
      const draft = this.draft(turn);
      const routedAt = performance.now();
      if (!request.stream) {
        const plan = await traced(stageSpan(trace, 'svc.stage.plan'), planCalls(this.deps, turn, this.maxAttempts, this.routerLatency), planAttributes, undefined);
        const owner = { deps: this.deps, verifier: this.verifier, recorder: this.recorder, overhead: this.overhead };
        return await traced(stageSpan(trace, 'svc.stage.answer'), answerJson(owner, turn, { outbound, plan, miss: cached.miss, draft, routedAt }), answerAttributes, undefined);
      }
      const response = await this.stream(turn, outbound, cached.miss);
      streaming = true; // the stream ends the spend when it ends
      return response;
    } finally {
      if (!streaming) turn.spend.end();
    }
  }

  /**
   * Speculation drafts with a cheaper model and serves the draft when verification accepts it;
   * where nothing can check a draft the option is reported as not applied.
   */
  private draft(turn: ChatTurn): ModelInfo | undefined {
    if (turn.request.svc?.enableSpeculation !== true) return undefined;
    const draft = runs(turn.switches, 'speculation', turn.shed) ? speculationDraft(turn.request, turn.exchange.mode, turn.decision) : undefined;
    if (!draft) turn.decision = { ...turn.decision, notApplied: [...turn.decision.notApplied, 'svc.enable_speculation'] };
    return draft;
  }

  /** Stage 4 for a stream: the waterfall to the first event, then the stream owns the turn's ending. */
  private async stream(turn: ChatTurn, outbound: Outbound, miss: CacheMiss | undefined): Promise<ChatResponse> {
    const { trace } = turn.exchange;
    const plan = await traced(stageSpan(trace, 'svc.stage.plan'), planCalls(this.deps, turn, this.maxAttempts, this.routerLatency), planAttributes, undefined);
    let opened: Awaited<ReturnType<typeof openStream>>;
    try {
      opened = await traced(stageSpan(trace, 'svc.stage.stream'), openStream(outbound.request, turn.decision.waterfall, plan.settings, plan.attempts), openedAttributes, undefined);
    } catch (error) {
      plan.deadline.clear();
      this.recorder.failure({ exchange: turn.exchange, request: turn.request, decision: turn.decision, attempts: plan.attempts });
      throw error;
    }
    // Until the first event is ready to send: the request's time so far less the provider's.
    this.streamOverhead.observe(Math.max(0, performance.now() - turn.exchange.startedAt - opened.providerMs) / 1000);
    outbound.remember();
    return streamResponse({ deps: this.deps, verifier: this.verifier, recorder: this.recorder }, turn, { model: opened.model, opened: opened.value, plan, outbound, miss });
  }
}

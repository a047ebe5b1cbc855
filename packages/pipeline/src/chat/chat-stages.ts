import type { ModelInfo } from '@svc/catalog';
import type { OutputVerifier } from '@svc/healing';
import type { LatencyStats } from '@svc/router';
import type { HistogramSeries } from '@svc/telemetry';
import { openStream } from '../call/call.js';
import { overDeadline } from '../call/deadline.js';
import type { ChatResponse, GatewayDeps } from '../gateway-types.js';
import type { LearnRecorder } from '../learn/learn-records.js';
import { answerAttributes, cacheAttributes, memoryAttributes, openedAttributes, planAttributes, stageSpan, traced } from '../stage-spans.js';
import { streamResponse } from '../stream/stream-response.js';
import { runs } from '../switches/switches.js';
import { answerFromCache } from './cache-answer.js';
import { planCalls } from './call-plan.js';
import type { ChatRouting } from './chat-routing.js';
import type { ChatTurn, Outbound } from './chat-turn.js';
import type { ChatStage } from './compose.js';
import { answerJson } from './json-answer.js';
import { prepareOutbound, startOutbound } from './outbound.js';
import { speculationDraft } from './speculation.js';

/** What the chat stages share: the gateway's deps and the parts it builds once. */
export interface StageOwner {
  deps: GatewayDeps;
  routing: ChatRouting;
  recorder: LearnRecorder;
  verifier: OutputVerifier;
  overhead: HistogramSeries;
  streamOverhead: HistogramSeries;
  maxAttempts: number;
  routerLatency: LatencyStats;
}

/** Stage 2: a cache hit answers here; a miss remembers where to store the answer and goes on. */
export function cacheStage(owner: StageOwner): ChatStage {
  const cache = { deps: owner.deps, catalog: owner.deps.catalog, recorder: owner.recorder };
  return async (turn, next) => {
    const startMiss = () => void startOutbound(owner.deps, turn);
    const cached = await traced(stageSpan(turn.exchange.trace, 'svc.stage.cache'), answerFromCache(cache, turn, startMiss), cacheAttributes, undefined);
    if ('response' in cached) return cached.response;
    turn.miss = cached.miss;
    return next();
  };
}

/** Stage 3: redaction, routing again with the embedding and memory, memory injected (`prepareOutbound`). */
export function outboundStage(owner: StageOwner): ChatStage {
  return async (turn, next) => {
    turn.outbound = await traced(stageSpan(turn.exchange.trace, 'svc.stage.memory'), prepareOutbound(owner.deps, owner.routing, turn), memoryAttributes, turn);
    return next();
  };
}

/** Stage 4, the last: the calls with waterfall fallback, answered as JSON or as a stream that then owns the turn's ending. */
export function callStage(owner: StageOwner): ChatStage {
  return async (turn) => {
    const outbound = turn.outbound!;
    const draft = draftOf(turn);
    const routedAt = performance.now();
    if (turn.request.stream) return streamAnswer(owner, turn, outbound);
    const plan = await traced(stageSpan(turn.exchange.trace, 'svc.stage.plan'), planCalls(owner.deps, turn, owner.maxAttempts, owner.routerLatency), planAttributes, undefined);
    const json = { deps: owner.deps, verifier: owner.verifier, recorder: owner.recorder, overhead: owner.overhead };
    return traced(stageSpan(turn.exchange.trace, 'svc.stage.answer'), answerJson(json, turn, { outbound, plan, miss: turn.miss, draft, routedAt }), answerAttributes, undefined);
  };
}

/**
 * Speculation drafts with a cheaper model and serves the draft when verification accepts it;
 * where nothing can check a draft the option is reported as not applied.
 */
function draftOf(turn: ChatTurn): ModelInfo | undefined {
  if (turn.request.svc?.enableSpeculation !== true) return undefined;
  const draft = runs(turn.switches, 'speculation', turn.shed) ? speculationDraft(turn.request, turn.exchange.mode, turn.decision) : undefined;
  if (!draft) turn.decision = { ...turn.decision, notApplied: [...turn.decision.notApplied, 'svc.enable_speculation'] };
  return draft;
}

/** The waterfall to the first event, then the stream owns the turn's ending. */
async function streamAnswer(owner: StageOwner, turn: ChatTurn, outbound: Outbound): Promise<ChatResponse> {
  const { trace } = turn.exchange;
  const plan = await traced(stageSpan(trace, 'svc.stage.plan'), planCalls(owner.deps, turn, owner.maxAttempts, owner.routerLatency), planAttributes, undefined);
  let opened: Awaited<ReturnType<typeof openStream>>;
  try {
    opened = await traced(stageSpan(trace, 'svc.stage.stream'), openStream(outbound.request, turn.decision.waterfall, plan.settings, plan.attempts), openedAttributes, undefined);
  } catch (error) {
    plan.deadline.release();
    owner.recorder.failure({ exchange: turn.exchange, request: turn.request, decision: turn.decision, attempts: plan.attempts });
    throw overDeadline(plan.deadline, error);
  }
  // Until the first event is ready to send: the request's time so far less the provider's.
  owner.streamOverhead.observe(Math.max(0, performance.now() - turn.exchange.startedAt - opened.providerMs) / 1000);
  outbound.remember();
  const response = streamResponse({ deps: owner.deps, verifier: owner.verifier, recorder: owner.recorder }, turn, { model: opened.model, opened: opened.value, plan, outbound, miss: turn.miss });
  turn.streamOwnsEnding = true;
  return response;
}

import type { ModelInfo } from '@svc/catalog';
import type { CachedAnswer, ChatRequest, IntelligenceMode, Usage } from '@svc/core';
import type { Cost } from '@svc/billing';
import { noteChatEnding } from './access-record.js';
import type { Attempt } from './attempt.js';
import type { CacheHit } from './cache-stage.js';
import { type RoutingDecision, decisionDetails, storedCandidates } from './decision-log.js';
import type { GatewayDeps, RequestContext } from './gateway-types.js';
import type { DecisionRecord } from './learn-queue.js';
import type { RouterFeedback } from './router-feedback.js';

/**
 * Stage 6 of a chat request as the gateway hands it over: the ledger row, the decision log entry,
 * the token/cost/savings metrics and the router's feedback, all queued (nothing here waits).
 */
export class LearnRecorder {
  constructor(private readonly deps: Pick<GatewayDeps, 'learn' | 'metrics' | 'feedback' | 'sticky'>) {}

  /** The ledger row (free, baseline kept) and the decision of an answer served from the cache; the router learns nothing from it. */
  cacheHit(
    context: RequestContext,
    request: ChatRequest,
    mode: IntelligenceMode,
    answer: CachedAnswer,
    hit: CacheHit,
    usage: Usage | undefined,
    cost: Cost | undefined,
    latencyMs: number,
    served: ModelInfo | undefined,
  ): void {
    const { metrics, learn } = this.deps;
    const createdAt = new Date();
    noteChatEnding(context.access, { orgId: context.caller.org.id, endUser: context.endUser, request, model: answer.model, provider: answer.provider, mode, cache: hit.layer, usage, costUsd: usage && cost ? 0 : undefined });
    metrics.cacheHits.series(hit.layer, 'chat').inc();
    if (usage && cost) {
      if (cost.savingsUsd > 0) metrics.model(answer.provider, answer.model).savingsUsd.inc(cost.savingsUsd);
      learn.recordUsage({
        requestId: context.requestId,
        orgId: context.caller.org.id,
        keyId: context.caller.keyId,
        model: answer.model,
        provider: answer.provider,
        promptTokens: usage.promptTokens,
        completionTokens: usage.completionTokens,
        cachedTokens: usage.promptTokens,
        costUsd: 0,
        baselineCostUsd: cost.baselineCostUsd,
        cacheHit: true,
        latencyMs,
        status: 200,
        stream: request.stream,
        createdAt,
      });
    }
    learn.recordDecision({
      requestId: context.requestId,
      orgId: context.caller.org.id,
      requestedModel: request.model,
      model: answer.model,
      provider: answer.provider,
      tier: served?.tier ?? answer.tier,
      lane: 'turbo',
      source: 'CacheHit',
      taskFamily: null,
      intelligenceMode: mode,
      attempts: [],
      candidates: [],
      outcome: 'ok',
      details: { cacheLayer: hit.layer, ...(hit.similarity === undefined ? {} : { similarity: hit.similarity }), storedAt: new Date(answer.storedAt).toISOString() },
      latencyMs,
      createdAt,
    });
  }

  /** The token, cost and savings counters of one provider call, on the model that made it. */
  countSpend(model: ModelInfo, usage: Usage, cost: Cost): void {
    const series = this.deps.metrics.model(model.provider, model.id);
    series.promptTokens.inc(usage.promptTokens);
    series.completionTokens.inc(usage.completionTokens);
    series.costUsd.inc(cost.costUsd);
    if (cost.savingsUsd > 0) series.savingsUsd.inc(cost.savingsUsd);
  }

  /** The request's one ledger row (idempotent by request id): what every call it made cost. */
  usage(context: RequestContext, model: ModelInfo, usage: Usage, cost: Cost, latencyMs: number, status: number, stream: boolean, usageEstimated: boolean, createdAt: Date): void {
    this.deps.learn.recordUsage({
      requestId: context.requestId,
      orgId: context.caller.org.id,
      keyId: context.caller.keyId,
      model: model.id,
      provider: model.provider,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      cachedTokens: usage.cachedPromptTokens ?? 0,
      costUsd: cost.costUsd,
      baselineCostUsd: cost.baselineCostUsd,
      cacheHit: false,
      latencyMs,
      status,
      stream,
      usageEstimated,
      createdAt,
    });
  }

  /** The ledger row, the decision and the router's lesson of an answered (or failed after the first byte) request. */
  outcome(
    context: RequestContext,
    request: ChatRequest,
    decision: RoutingDecision,
    mode: IntelligenceMode,
    model: ModelInfo,
    attempts: Attempt[],
    outcome: string,
    usage: Usage | undefined,
    cost: Cost | undefined,
    latencyMs: number,
    stream: boolean,
    details: Record<string, unknown>,
    extra: LearnExtra = {},
  ): void {
    const { learn } = this.deps;
    const createdAt = new Date();
    noteChatEnding(context.access, { orgId: context.caller.org.id, endUser: context.endUser, request, model: model.id, provider: model.provider, mode, cache: false, usage, costUsd: cost?.costUsd });
    if (usage && cost) this.countSpend(model, usage, cost);
    const row = extra.billed ?? (usage && cost ? { usage, cost } : undefined);
    const status = outcome === 'ok' || outcome === 'client_closed' ? 200 : 502;
    if (row) this.usage(context, model, row.usage, row.cost, latencyMs, status, stream, details.usageEstimated === true, createdAt);
    learn.recordDecision(decisionRecord(context, request, decision, mode, model, attempts, outcome, latencyMs, details, createdAt));
    const success = outcome === 'ok' || outcome === 'client_closed';
    const feedback = this.deps.feedback;
    if (feedback) {
      teachFailures(feedback, decision, attempts);
      feedback.record({
        decision,
        modelId: model.id,
        success,
        ...(usage ? { completionTokens: usage.completionTokens } : {}),
        ...(cost ? { costUsd: cost.costUsd } : {}),
        ...(extra.quality === undefined ? {} : { quality: extra.quality }),
      });
      // A draft verification refused taught the router that the cheaper model could not do this request.
      if (extra.rejectedDraft) feedback.record({ decision, modelId: extra.rejectedDraft.id, success: false });
    }
    if (success && decision.stickyKey !== undefined) this.deps.sticky?.set(context.caller.org.id, decision.stickyKey, model.id);
  }

  /** The decision of a request every candidate failed, and what the router learns from it. */
  failure(context: RequestContext, request: ChatRequest, decision: RoutingDecision, mode: IntelligenceMode, attempts: Attempt[]): void {
    const latencyMs = Math.round(performance.now() - context.startedAt);
    this.deps.learn.recordDecision(decisionRecord(context, request, decision, mode, decision.model, attempts, 'error', latencyMs, {}, new Date()));
    if (this.deps.feedback) teachFailures(this.deps.feedback, decision, attempts);
  }
}

function decisionRecord(
  context: RequestContext,
  request: ChatRequest,
  decision: RoutingDecision,
  mode: IntelligenceMode,
  model: ModelInfo,
  attempts: Attempt[],
  outcome: string,
  latencyMs: number,
  details: Record<string, unknown>,
  createdAt: Date,
): DecisionRecord {
  return {
    requestId: context.requestId,
    orgId: context.caller.org.id,
    requestedModel: request.model,
    model: model.id,
    provider: model.provider,
    tier: model.tier,
    lane: decision.lane,
    source: decision.source,
    taskFamily: decision.taskFamily,
    intelligenceMode: mode,
    attempts,
    candidates: storedCandidates(decision),
    outcome,
    details: { ...decisionDetails(request, decision), ...details },
    latencyMs,
    createdAt,
  };
}

/** What the learn stage needs beyond the answering call. */
export interface LearnExtra {
  /** What the request is billed when it made more calls than the one answering (a re-ask, a rejected draft). */
  billed?: { usage: Usage; cost: Cost };
  /** Quality of the answer in 0..1 as verification judged it (absent: a plain success is 1). */
  quality?: number;
  /** A speculation draft verification refused. */
  rejectedDraft?: ModelInfo;
}

/** Each candidate that failed on its own account teaches the router a failure (a caller-fault error teaches nothing). */
function teachFailures(feedback: Pick<RouterFeedback, 'record'>, decision: RoutingDecision, attempts: readonly Attempt[]): void {
  for (const attempt of attempts) {
    if (attempt.outcome === 'error' && attempt.errorKind !== undefined && upstreamFaults.has(attempt.errorKind)) {
      feedback.record({ decision, modelId: attempt.model, success: false });
    }
  }
}

/** ProviderError kinds that say the model (not the caller) failed. */
const upstreamFaults = new Set(['server', 'timeout', 'overloaded', 'network']);

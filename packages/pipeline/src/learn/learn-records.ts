import type { ModelInfo } from '@svc/catalog';
import type { CachedAnswer, ChatRequest, MemoryReport, Usage } from '@svc/core';
import type { Cost } from '@svc/billing';
import { ledgerEndUser, ledgerTags, noteChatEnding } from './access-record.js';
import type { Attempt } from '../call/attempt.js';
import type { CacheHit } from '../chat/cache-stage.js';
import { type RoutingDecision, decisionDetails, storedCandidates } from './decision-log.js';
import type { Exchange } from '../exchange.js';
import type { GatewayDeps } from '../gateway-types.js';
import type { DecisionRecord } from './learn-queue.js';
import type { RouterFeedback } from './router-feedback.js';

/**
 * Stage 6 of a chat request as the gateway hands it over: the ledger row, the decision log entry,
 * the token/cost/savings metrics and the router's feedback, all queued (nothing here waits).
 */
export class LearnRecorder {
  constructor(private readonly deps: Pick<GatewayDeps, 'learn' | 'metrics' | 'feedback' | 'sticky'>) {}

  /** The ledger row (free, baseline kept) and the decision of an answer served from the cache; the router learns nothing from it. */
  cacheHit(served: CacheHitRecord): void {
    const { exchange, request, answer, hit, usage, cost, latencyMs } = served;
    const { metrics, learn } = this.deps;
    const createdAt = new Date();
    const mode = exchange.mode;
    noteChatEnding(exchange.access, { orgId: exchange.caller.org.id, endUser: exchange.endUser, request, model: answer.model, provider: answer.provider, mode, cache: hit.layer, usage, costUsd: usage && cost ? 0 : undefined });
    metrics.cacheHits.series(hit.layer, 'chat').inc();
    if (usage && cost) {
      if (cost.savingsUsd > 0) metrics.model(answer.provider, answer.model).savingsUsd.inc(cost.savingsUsd);
      learn.recordUsage({
        requestId: exchange.requestId,
        orgId: exchange.caller.org.id,
        keyId: exchange.caller.keyId,
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
        endUser: ledgerEndUser(exchange, request),
        // A hit ran no memory stage: nothing was injected.
        memoryInjected: exchange.mode === 'full' ? 0 : null,
        tags: ledgerTags(exchange, request),
        createdAt,
      });
    }
    learn.recordDecision({
      requestId: exchange.requestId,
      orgId: exchange.caller.org.id,
      requestedModel: request.model,
      model: answer.model,
      provider: answer.provider,
      tier: served.model?.tier ?? answer.tier,
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
  usage(row: UsageRow): void {
    const { exchange, model, usage, cost } = row;
    this.deps.learn.recordUsage({
      requestId: exchange.requestId,
      orgId: exchange.caller.org.id,
      keyId: exchange.caller.keyId,
      model: model.id,
      provider: model.provider,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      cachedTokens: usage.cachedPromptTokens ?? 0,
      costUsd: cost.costUsd,
      baselineCostUsd: cost.baselineCostUsd,
      cacheHit: false,
      latencyMs: row.latencyMs,
      status: row.status,
      stream: row.stream,
      usageEstimated: row.usageEstimated,
      // Left out of the row's JSON when priced (undefined), in the same place when not: one shape either way.
      unpriced: cost.unpriced ? true : undefined,
      endUser: row.endUser ?? null,
      memoryInjected: row.memoryInjected ?? null,
      tags: row.tags ?? null,
      createdAt: row.createdAt,
    });
  }

  /** The ledger row, the decision and the router's lesson of an answered (or failed after the first byte) request. */
  outcome(ended: OutcomeRecord): void {
    const { exchange, request, decision, model, outcome, usage, cost, latencyMs, stream, details, extra = {} } = ended;
    const { learn } = this.deps;
    const createdAt = new Date();
    noteChatEnding(exchange.access, { orgId: exchange.caller.org.id, endUser: exchange.endUser, request, model: model.id, provider: model.provider, mode: exchange.mode, cache: false, usage, costUsd: cost?.unpriced ? undefined : cost?.costUsd });
    if (usage && cost) this.countSpend(model, usage, cost);
    const row = extra.billed ?? (usage && cost ? { usage, cost } : undefined);
    const success = outcome === 'ok' || outcome === 'client_closed';
    const status = success ? 200 : 502;
    if (row) {
      const endUser = ledgerEndUser(exchange, request);
      const tags = ledgerTags(exchange, request);
      this.usage({ exchange, model, usage: row.usage, cost: row.cost, latencyMs, status, stream, usageEstimated: details.usageEstimated === true, createdAt, endUser, memoryInjected: extra.memory?.injected ?? null, tags });
    }
    learn.recordDecision(decisionRecord(ended, createdAt));
    const feedback = this.deps.feedback;
    if (feedback) {
      teachFailures(feedback, decision, ended.attempts);
      feedback.record({
        decision,
        modelId: model.id,
        success,
        // The router reads each as absent when undefined.
        completionTokens: usage?.completionTokens,
        costUsd: cost?.costUsd,
        quality: extra.quality,
      });
      // A draft verification refused taught the router that the cheaper model could not do this request.
      if (extra.rejectedDraft) feedback.record({ decision, modelId: extra.rejectedDraft.id, success: false });
    }
    if (success && decision.stickyKey !== undefined) this.deps.sticky?.set(exchange.caller.org.id, decision.stickyKey, model.id);
  }

  /** The decision of a request every candidate failed, and what the router learns from it. */
  failure(failed: FailureRecord): void {
    const { exchange, decision } = failed;
    const latencyMs = Math.round(performance.now() - exchange.startedAt);
    this.deps.learn.recordDecision(decisionRecord({ ...failed, model: decision.model, outcome: 'error', latencyMs, details: {} }, new Date()));
    if (this.deps.feedback) teachFailures(this.deps.feedback, decision, failed.attempts);
  }
}

/** `createdAt` is its own argument: a copy of `ended` with one key more is a slow object on V8 (a map of its own, ~2-3 KB). */
function decisionRecord(ended: Omit<OutcomeRecord, 'usage' | 'cost' | 'stream' | 'extra'>, createdAt: Date): DecisionRecord {
  const { exchange, request, decision, model } = ended;
  return {
    requestId: exchange.requestId,
    orgId: exchange.caller.org.id,
    requestedModel: request.model,
    model: model.id,
    provider: model.provider,
    tier: model.tier,
    lane: decision.lane,
    source: decision.source,
    taskFamily: decision.taskFamily,
    intelligenceMode: exchange.mode,
    attempts: ended.attempts,
    candidates: storedCandidates(decision),
    outcome: ended.outcome,
    // decisionDetails builds a record of its own: the request's details are added to it, not to a copy.
    details: Object.assign(decisionDetails(request, decision), ended.details),
    latencyMs: ended.latencyMs,
    createdAt,
  };
}

/** A chat request that ran the call stage: what was asked, how it was routed, the calls it made. */
export interface FailureRecord {
  exchange: Exchange;
  request: ChatRequest;
  decision: RoutingDecision;
  attempts: Attempt[];
}

/** How a request that reached a model ended (answered, refused by a policy, cut after the first byte). */
export interface OutcomeRecord extends FailureRecord {
  /** The model that answered. */
  model: ModelInfo;
  /** `ok`, `client_closed`, `tool_call_blocked`, `error_after_first_byte`. */
  outcome: string;
  /** The answering call's usage and cost. */
  usage: Usage | undefined;
  cost: Cost | undefined;
  latencyMs: number;
  stream: boolean;
  /** Decision-log details of this request (replicated choices, healing, shed stages...). */
  details: Record<string, unknown>;
  extra?: LearnExtra;
}

/** One ledger row. */
export interface UsageRow {
  exchange: Exchange;
  model: ModelInfo;
  usage: Usage;
  cost: Cost;
  latencyMs: number;
  status: number;
  stream: boolean;
  usageEstimated: boolean;
  /** The end user's hash (`hashEndUser`), null when the request named none. */
  endUser?: string | null;
  /** Memories injected into the prompt; null when the memory stage did not run. */
  memoryInjected?: number | null;
  /** The request's metadata: the tags its spend is attributed by (cost reports, ledger export). */
  tags?: Record<string, string> | null;
  createdAt: Date;
}

/** An answer served from a cache. */
export interface CacheHitRecord {
  exchange: Exchange;
  request: ChatRequest;
  answer: CachedAnswer;
  hit: CacheHit;
  /** The stored answer's usage (every prompt token cached) and what it saved. */
  usage: Usage | undefined;
  cost: Cost | undefined;
  latencyMs: number;
  /** The catalog's entry of the model that once answered, when it is still served. */
  model: ModelInfo | undefined;
}

/** What the learn stage needs beyond the answering call. */
export interface LearnExtra {
  /** What the request is billed when it made more calls than the one answering (a re-ask, a rejected draft). */
  billed?: { usage: Usage; cost: Cost };
  /** Quality of the answer in 0..1 as verification judged it (absent: a plain success is 1). */
  quality?: number;
  /** A speculation draft verification refused. */
  rejectedDraft?: ModelInfo;
  /** Mode `full`: what memory injected (the ledger row's `memoryInjected`). */
  memory?: MemoryReport;
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

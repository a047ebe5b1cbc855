import type { Catalog, ModelInfo } from '@svc/catalog';
import { type ChatRequest, type ChatResult, type GatewayError, type IntelligenceMode, defaultOutputConfig, isGatewayError, randomId } from '@svc/core';
import { type ToolGovernance, checkDeclaredTools, checkToolCalls } from '@svc/governance';
import { type OutputVerifier, createOutputVerifier } from '@svc/healing';
import { type Cost, type Reservation, callerLimits, computeCost, sumCosts, tokenCostUsd, unlimitedReservation } from '@svc/billing';
import { withOwnKeys } from '@svc/byok';
import { type LatencyStats, type MemorySignals, type RouteContext, type Router, createLatencyStats, createRouter } from '@svc/router';
import type { HistogramSeries } from '@svc/telemetry';
import type { Attempt } from './attempt.js';
import type { ChatResponse, GatewayDeps, GatewayTimeouts, RequestContext } from './gateway-types.js';
import { LearnRecorder } from './learn-records.js';

export type { ChatJsonResponse, ChatResponse, ChatStreamResponse, GatewayDeps, GatewayTimeouts, RequestContext } from './gateway-types.js';
import { type CallSettings, callChat, openStream } from './call.js';
import { countRejection, countUpstreamError } from './call-metrics.js';
import { createDeadline } from './deadline.js';
import { resolveIntelligenceMode } from './intelligence-mode.js';
import { answerHeaders, buildSvcMetadata, memoryHeader, routingHeaders } from './metadata.js';
import { type CacheMiss, cacheEnabled, lookupCache, storeAnswer } from './cache-stage.js';
import { type StreamOwner, streamResponse } from './stream-response.js';
import { cacheHitResponse } from './cache-hit-response.js';
import { type Verified, addUsage, healOptions, verificationPlan, verifyAnswer } from './verification.js';
import type { RoutingDecision } from './decision-log.js';
import { reliabilitySettings } from './reliability.js';
import { type Speculation, speculate, speculationDraft } from './speculation.js';
import { largerContextModels, requiredCapabilities } from './route.js';
import { injectMemory, memorySignals, recallForRequest, redactRequest, rememberRequest, requestMemory, restoreResult } from './memory-stage.js';
import { NORMAL, isOn, reportShed, runs, shedList, shedMetadata, switchedVerification } from './switches.js';

const defaultTimeouts: GatewayTimeouts = { requestMs: 600_000, firstByteMs: 120_000 };
const defaultRetry = { maxRetries: 1, baseMs: 200, capMs: 2_000 };


/**
 * The six stages for chat, protocol-neutral: (1) authenticate happened in the app through
 * `Authenticator`; (2) cache: passes through until the cache issue; (3) route; (4) call with
 * waterfall fallback; (5) deliver: metadata and headers for the app to encode; (6) learn: usage
 * and decision queued, written off the response path.
 */
export class Gateway {
  private readonly maxAttempts: number;
  private readonly router: Router;
  private readonly routerLatency: LatencyStats;
  /** Route contexts by mode and org policy, built once: [full/cache, proxy, free full/cache, free proxy]. */
  private readonly routeContexts: readonly RouteContext[];
  /** Proxy mode routes on the structural features only (spec §Intelligence modes: the small vector). */
  private readonly verifier: OutputVerifier;
  private readonly recorder: LearnRecorder;
  /** What a streamed answer needs of this gateway (`stream-response.ts`). */
  private readonly streamOwner: StreamOwner;
  private readonly cacheHitOwner: { catalog: Catalog; recorder: LearnRecorder };
  private readonly overhead: HistogramSeries;
  private readonly streamOverhead: HistogramSeries;

  constructor(private readonly deps: GatewayDeps) {
    this.overhead = deps.metrics.gatewayOverhead.series('chat');
    this.streamOverhead = deps.metrics.gatewayOverhead.series('chat_stream');
    this.maxAttempts = deps.maxAttempts ?? 4;
    this.verifier = deps.verifier ?? createOutputVerifier();
    this.recorder = new LearnRecorder(deps);
    this.streamOwner = { deps, verifier: this.verifier, recorder: this.recorder };
    this.cacheHitOwner = { catalog: deps.catalog, recorder: this.recorder };
    this.routerLatency = deps.routerLatency ?? createLatencyStats();
    this.router = deps.router ?? createRouter({ catalog: deps.catalog, latency: this.routerLatency });
    const latency = this.routerLatency;
    const breakers = deps.breakers;
    const live: RouteContext = {
      latencyMs: (id) => latency.get(id),
      ...(breakers?.knownOpen ? { breakerOpen: (id: string) => breakers.knownOpen!(id) } : {}),
    };
    const free: RouteContext = { ...live, orgPolicy: { freeModelsOnly: true } };
    this.routeContexts = [live, { ...live, textFeatures: false }, free, { ...free, textFeatures: false }];
  }

  /**
   * Admission against the organisation's limits with an upper-bound estimate: the prompt plus
   * `max_tokens` (1,000 when unset) at the first choice's prices. Throws 429 / 402.
   */
  private async admit(request: ChatRequest, context: RequestContext, model: ModelInfo, promptTokens: number): Promise<Reservation> {
    const completion = request.maxTokens ?? defaultCompletionEstimate;
    try {
      return await this.deps.limiter!.admit({
        orgId: context.caller.org.id,
        keyId: context.caller.keyId,
        limits: callerLimits(context.caller),
        estimatedTokens: promptTokens + completion,
        estimatedCostUsd: tokenCostUsd(model, { promptTokens, completionTokens: completion }),
      });
    } catch (error) {
      countRejection(this.deps.metrics, error);
      throw error;
    }
  }

  /**
   * Tool governance of the caller's organisation, for requests that declare tools (no tool, no
   * check, no await); an org without a policy costs one cached lookup. Declared tools are checked
   * here: 404 tool_not_registered / 422 tool_call_blocked before any provider call.
   */
  private async governance(request: ChatRequest, orgId: string): Promise<ToolGovernance | undefined> {
    const source = this.deps.governance;
    if (!source || !request.tools || request.tools.length === 0) return undefined;
    const governance = await source.get(orgId);
    if (!governance.active) return undefined;
    checkDeclaredTools(request, governance);
    return governance;
  }

  /** Routes without waiting unless the chain needs the shared store (sticky model, step limits). */
  private route(request: ChatRequest, context: RequestContext, mode: IntelligenceMode): RoutingDecision | Promise<RoutingDecision> {
    const svc = request.svc;
    const { sticky, chains } = this.deps;
    const routeContext = this.routeContext(context, mode);
    const stickyKey = sticky && request.routingHints?.chainRouting !== 'mixed' ? (svc?.chainId ?? svc?.conversationId) : undefined;
    if (stickyKey === undefined && !(chains && svc?.chainId !== undefined)) return this.router.route(request, routeContext);
    return this.routeChain(request, context, stickyKey, routeContext);
  }

  private routeContext(context: RequestContext, mode: IntelligenceMode): RouteContext {
    return this.routeContexts[(mode === 'proxy' ? 1 : 0) + (context.caller.org.freeModelsOnly === true ? 2 : 0)]!;
  }

  /**
   * Full mode, after a cache miss: the router decides again with the memory features (the spec's
   * "memory router cascade"). Synchronous; a chain keeps its sticky model and is not counted twice.
   */
  private withMemory(request: ChatRequest, context: RequestContext, decision: RoutingDecision, memory: MemorySignals): RoutingDecision {
    const routeContext: RouteContext = { ...this.routeContext(context, 'full'), memory, ...(decision.source === 'Sticky' ? { stickyModel: decision.model.id } : {}) };
    return this.router.route(request, routeContext);
  }

  private async routeChain(request: ChatRequest, context: RequestContext, stickyKey: string | undefined, routeContext: RouteContext): Promise<RoutingDecision> {
    const orgId = context.caller.org.id;
    const stickyModel = stickyKey === undefined ? undefined : await this.deps.sticky!.get(orgId, stickyKey);
    const decision = this.router.route(request, stickyModel === undefined ? routeContext : { ...routeContext, stickyModel });
    const { chains } = this.deps;
    if (chains?.applies(request, decision.workflowType)) await chains.check(orgId, request);
    return decision;
  }

  get catalog(): Catalog {
    return this.deps.catalog;
  }

  async chat(request: ChatRequest, context: RequestContext): Promise<ChatResponse> {
    const mode = resolveIntelligenceMode(context.intelligenceModeHeader, request.svc?.intelligenceMode, context.caller.org.defaultIntelligenceMode);
    const output = context.caller.org.outputConfig ?? defaultOutputConfig;
    // Routing runs first even though a hit ignores it: it is synchronous and cheap, and a chain's
    // step limits must count cached steps too.
    const governance = await this.governance(request, context.caller.org.id);
    const routed = this.route(request, context, mode);
    let decision = routed instanceof Promise ? await routed : routed;
    // Stage 1's limits (RPM/TPM, monthly budget and quota): admitted against the first choice's prices.
    const reservation = this.deps.limiter ? await this.admit(request, context, decision.model, decision.promptTokens) : unlimitedReservation;
    // The operator's flags and degradation level: one snapshot for the whole request.
    const switches = this.deps.switches?.current ?? NORMAL;
    const shed = shedList(switches);
    const cacheRuns = cacheEnabled(mode, request);
    const exactCache = cacheRuns && this.deps.exactCache && runs(switches, 'exact_cache', shed) ? this.deps.exactCache : undefined;
    const semanticCache = cacheRuns && this.deps.semanticCache && runs(switches, 'semantic_cache', shed) ? this.deps.semanticCache : undefined;
    // Full mode with memory: answers are cached only for the memory scope whose facts they may hold.
    const scoped = mode === 'full' && this.deps.memory !== undefined && isOn(switches, 'memory') ? requestMemory(request, context.caller, context.endUser) : undefined;
    const partition = scoped?.partition ?? { orgId: context.caller.org.id };
    let miss: CacheMiss | undefined;
    if (exactCache || semanticCache) {
      let cached: Awaited<ReturnType<typeof lookupCache>>;
      try {
        cached = await lookupCache(exactCache, semanticCache, request, partition);
        if ('hit' in cached) {
          const blocked = governance ? blockedCallError(cached.hit.answer.result, governance) : undefined;
          if (blocked) throw blocked;
        }
      } catch (error) {
        void reservation.release();
        throw error;
      }
      if ('hit' in cached) {
        // A hit consumes no tokens and costs nothing: only the request counts.
        void reservation.settle({ actualTokens: 0, actualCostUsd: 0 });
        // A hit ran no memory stage: it reports nothing injected (the answer was cached for this scope only).
        const nothing = scoped ? { injected: 0, tokens: 0 } : undefined;
        const hit = withHeaders(cacheHitResponse(this.cacheHitOwner, request, context, mode, cached.hit), { ...memoryHeader(nothing), ...reservation.headers });
        reportShed(switches, shed, this.deps.metrics, hit.headers);
        const hitMetadata = hit.kind === 'json' ? hit.metadata : hit.metadata()!;
        if (nothing) hitMetadata.memory = nothing;
        shedMetadata(switches, shed, hitMetadata);
        return hit;
      }
      miss = cached.miss;
    }
    // Full mode recalls the org's memory (after a miss: a hit never pays for it), routes again with
    // the memory features and injects the memories into the prompt; svc.redact_pii hides PII from
    // the provider and from memory.
    const memory = mode === 'full' && this.deps.memory && runs(switches, 'memory', shed) ? this.deps.memory : undefined;
    const redaction = request.svc?.redactPii === true ? redactRequest(request) : undefined;
    const sent = redaction?.request ?? request;
    const recalled = memory && scoped ? await recallForRequest(memory, sent, scoped.recall) : undefined;
    if (recalled) decision = this.withMemory(request, context, decision, memorySignals(recalled, request.svc?.conversationId));
    const injected = recalled ? injectMemory(sent, recalled) : undefined;
    const outbound = injected?.request ?? sent;
    const memoryReport = injected?.report;
    // Speculation drafts with a cheaper model and serves the draft when verification accepts it; where nothing can check a draft it is reported as not applied.
    const speculating = request.svc?.enableSpeculation === true && runs(switches, 'speculation', shed);
    const draft = speculating ? speculationDraft(request, mode, decision) : undefined;
    if (request.svc?.enableSpeculation === true && !draft) decision = { ...decision, notApplied: [...decision.notApplied, 'svc.enable_speculation'] };
    const routedAt = performance.now();
    const attempts: Attempt[] = [];
    const reliability = reliabilitySettings(request.svc?.reliabilityLevel, this.deps.retry ?? defaultRetry, this.maxAttempts);
    const own = this.deps.byok?.forOrg(context.caller.org.id);
    const orgProviders = own instanceof Promise ? await own : own;
    const { providers, ownKey } = withOwnKeys(orgProviders, this.deps.providers);
    const timeouts = this.deps.timeouts ?? defaultTimeouts;
    const deadline = createDeadline(context.signal, timeouts.requestMs);
    const settings: CallSettings = {
      providers,
      ...(orgProviders ? { ownKey } : {}),
      observer: { attempt: (model, attempt) => this.observeAttempt(model, attempt) },
      maxAttempts: reliability.maxAttempts,
      signal: deadline.signal,
      firstByteTimeoutMs: (provider) => timeouts.perProvider?.[provider]?.firstByteMs ?? timeouts.firstByteMs,
      retry: reliability.retry,
      ...(timeouts.requestMs > 0 ? { deadline: Date.now() + timeouts.requestMs } : {}),
      ...(this.deps.hedging
        ? {
            hedging: {
              latency: this.deps.hedging.latency,
              stats: this.deps.hedging.stats,
              enabled: (request.svc?.enableHedging ?? (reliability.hedge || this.deps.hedging.config.enabledByDefault)) && runs(switches, 'hedging', shed),
            },
          }
        : {}),
      largerContext: (model) => largerContextModels(this.deps.catalog, model, requiredCapabilities(request)),
      ...(this.deps.breakers ? { breakers: this.deps.breakers } : {}),
      ...(context.forwardHeaders ? { headers: context.forwardHeaders } : {}),
      ...(context.trace ? { trace: context.trace } : {}),
    };
    // Whether the reservation was ended on the way (a blocked tool call settles what it spent).
    let ended = false;
    let speculation: Speculation | undefined;
    try {
      if (request.stream) {
        const opened = await openStream(outbound, decision.waterfall, settings, attempts);
        ended = true; // the stream owns the reservation from here
        // Until the first event is ready to send: the request's time so far less the provider's.
        this.streamOverhead.observe(Math.max(0, performance.now() - context.startedAt - opened.providerMs) / 1000);
        if (memory && scoped) rememberRequest(memory, sent, scoped.scope);
        return streamResponse(this.streamOwner, { request, context, decision, mode, output, model: opened.model, opened: opened.value, attempts, deadline, miss, providers, orgProviders, governance, reservation, switches, shed, memory: memoryReport });
      }
      speculation = draft ? await speculate(outbound, draft, settings, attempts, healOptions(output, this.verifier)) : undefined;
      const called = speculation?.accepted
        ? { value: speculation.result!, model: speculation.draft, providerMs: speculation.providerMs }
        : await callChat(outbound, decision.waterfall, settings, attempts);
      const { model } = called;
      let { value: result, providerMs } = called;
      // A rejected draft was a provider call too: not the gateway's overhead.
      if (speculation && !speculation.accepted) providerMs += speculation.providerMs;
      const plan = switchedVerification(verificationPlan(request, mode, output), request.svc?.outputVerification !== undefined, switches, shed);
      let verified: Verified | undefined;
      if (speculation?.accepted) verified = { result, healerReport: speculation.healerReport, reasks: [], notApplied: false };
      else if (plan.verify || plan.notApplied) {
        const before = performance.now();
        const crossModel = output.crossModelCandidate === null ? undefined : this.deps.catalog.get(output.crossModelCandidate);
        verified = await verifyAnswer(outbound, plan, result, model, decision.waterfall, settings, attempts, { config: output, verifier: this.verifier, crossModel });
        result = verified.result;
        // A re-ask is a provider call: it is not the gateway's overhead.
        if (verified.reasks.length > 0) providerMs += performance.now() - before;
        if (verified.notApplied) decision = { ...decision, notApplied: [...decision.notApplied, 'svc.output_verification'] };
      }
      deadline.clear();
      if (governance) {
        const blocked = blockedCallError(result, governance);
        if (blocked) {
          // The answer was paid for: its spend is recorded before the refusal.
          const spent = called.value.usage ? computeCost(model, called.value.usage) : undefined;
          this.recorder.outcome(context, request, decision, mode, model, attempts, 'tool_call_blocked', called.value.usage, spent, Math.round(performance.now() - context.startedAt), false, {});
          void reservation.settle({ actualTokens: called.value.usage?.totalTokens ?? 0, actualCostUsd: spent?.costUsd ?? 0 });
          ended = true;
          throw blocked;
        }
      }
      if (memory && scoped) rememberRequest(memory, sent, scoped.scope);
      if (redaction) result = restoreResult(result, redaction.restore);
      const replicated = replicateChoices(result, request.n);
      if (miss) storeAnswer(exactCache, semanticCache, request, miss, { result, model: model.id, provider: model.provider, tier: model.tier, storedAt: Date.now() });
      const elapsed = performance.now() - context.startedAt;
      this.overhead.observe(Math.max(0, elapsed - providerMs) / 1000);
      const latencyMs = Math.round(elapsed);
      const firstCost = result.usage ? computeCost(model, result.usage) : undefined;
      // Every re-ask was paid for: billed with the answer, in the request's one ledger row.
      const reasks = (verified?.reasks ?? []).flatMap((reask) => (reask.usage ? [{ ...reask, usage: reask.usage, cost: computeCost(reask.model, reask.usage) }] : []));
      // A rejected draft was paid for too.
      const rejected = speculation && !speculation.accepted && speculation.usage ? { model: speculation.draft, usage: speculation.usage } : undefined;
      const draftCost = rejected ? computeCost(rejected.model, rejected.usage) : undefined;
      // The client is billed for the answer, its correction and a rejected draft: usage and cost cover every call.
      const cost = [...reasks.map((reask) => reask.cost), draftCost].reduce<Cost | undefined>((sum, extra) => (extra ? (sum ? sumCosts(sum, extra) : extra) : sum), firstCost);
      for (const reask of reasks) result = { ...result, usage: addUsage(result.usage, reask.usage)! };
      if (rejected) result = { ...result, usage: addUsage(result.usage, rejected.usage)! };
      const metadata = buildSvcMetadata({ requestId: context.requestId, requestedModel: request.model, decision, served: model, mode, latencyMs, cost, byok: orgProviders?.get(model.provider) !== undefined, memory: memoryReport });
      if (verified?.healerReport) metadata.healer_report = verified.healerReport;
      const breakdown = {
        route_ms: round1(routedAt - context.startedAt),
        provider_ms: round1(providerMs),
        total_ms: latencyMs,
      };
      const auditId = `aud_${randomId(20)}`;
      const headers = { ...routingHeaders(context.requestId, context.caller.org.id, decision, model, mode), ...memoryHeader(memoryReport), ...answerHeaders(result.usage, cost, breakdown, auditId) };
      if (speculation?.accepted) headers['x-svc-speculation-accepted'] = '1';
      const details: Record<string, unknown> = {};
      if (replicated) details.replicatedChoices = replicated;
      if (verified?.healerReport) details.healing = { stage: verified.healerReport.stage, confidence: verified.healerReport.confidence };
      const lastReask = verified?.reasks.at(-1);
      if (lastReask) details.reask = { model: lastReask.model.id, valid: lastReask.valid, ...(verified!.reasks.length > 1 ? { count: verified!.reasks.length } : {}) };
      if (speculation) details.speculation = { draft: speculation.draft.id, accepted: speculation.accepted };
      if (shed.length > 0) details.shed = [...shed];
      reportShed(switches, shed, this.deps.metrics, headers);
      shedMetadata(switches, shed, metadata);
      // One ledger row per request, billing every call it made; the metrics count each call on its own model.
      for (const reask of reasks) this.recorder.countSpend(reask.model, reask.usage, reask.cost);
      if (rejected && draftCost) this.recorder.countSpend(rejected.model, rejected.usage, draftCost);
      const billed = result.usage && cost ? { usage: result.usage, cost } : undefined;
      this.recorder.outcome(context, request, decision, mode, model, attempts, 'ok', called.value.usage, firstCost, latencyMs, false, details, {
        ...(billed ? { billed } : {}),
        // What verification found is the router's quality signal: a re-ask means the answer failed, healing is worth its confidence.
        ...(lastReask ? { quality: 0 } : verified?.healerReport ? { quality: verified.healerReport.confidence } : {}),
        ...(rejected ? { rejectedDraft: rejected.model } : {}),
      });
      // An organisation's own key is paid by the organisation: it counts against rate limits, not the budget.
      void reservation.settle({ actualTokens: result.usage?.totalTokens ?? 0, actualCostUsd: metadata.cost_attribution === 'byok' ? 0 : (cost?.costUsd ?? 0) });
      return { kind: 'json', result, metadata, headers: { ...headers, ...reservation.headers } };
    } catch (error) {
      deadline.clear();
      this.recorder.failure(context, request, decision, mode, attempts);
      // A draft answered before the chosen model failed: what it spent is still recorded and charged, in the request's one row.
      const spent = speculation?.usage && !speculation.accepted ? computeCost(speculation.draft, speculation.usage) : undefined;
      if (spent && speculation?.usage) {
        this.recorder.countSpend(speculation.draft, speculation.usage, spent);
        this.recorder.usage(context, speculation.draft, speculation.usage, spent, Math.round(performance.now() - context.startedAt), isGatewayError(error) ? error.status : 500, false, false, new Date());
      }
      if (!ended && spent && speculation?.usage) {
        ended = true;
        void reservation.settle({ actualTokens: speculation.usage.totalTokens, actualCostUsd: orgProviders?.get(speculation.draft.provider) ? 0 : spent.costUsd });
      }
      if (!ended) void reservation.release();
      throw error;
    }
  }

  private observeAttempt(model: ModelInfo, attempt: Attempt): void {
    const series = this.deps.metrics.model(model.provider, model.id);
    const seconds = attempt.latencyMs / 1000;
    // Time to the answer (or to a stream's first event): what the router weighs as latency.
    if (attempt.outcome === 'ok') {
      series.providerOk.observe(seconds);
      this.routerLatency.observe(model.id, attempt.latencyMs);
    } else if (attempt.outcome === 'error') {
      series.providerError.observe(seconds);
      countUpstreamError(this.deps.metrics, model, attempt.errorKind ?? 'unknown', attempt.upstreamStatus);
    } else series.providerSkipped.observe(seconds);
  }

}

/**
 * For `n` > 1 when the provider returned fewer choices, the first choice is replicated to the
 * requested count (spec §Chat completion response). Returns how many were added.
 */
export function replicateChoices(result: ChatResult, n: number): number {
  const first = result.choices[0];
  if (!first || result.choices.length >= n) return 0;
  const added = n - result.choices.length;
  for (let index = result.choices.length; index < n; index++) result.choices.push({ ...first, index });
  return added;
}

/** Completion tokens assumed at admission when the request sets no `max_tokens`. */
const defaultCompletionEstimate = 1_000;

/** The reservation of a gateway without a limiter. */

function withHeaders(response: ChatResponse, extra: Readonly<Record<string, string>>): ChatResponse {
  for (const _ in extra) return { ...response, headers: { ...response.headers, ...extra } };
  return response;
}

/** The 422 for the first tool call of `result` the policy blocks, if any. */
function blockedCallError(result: ChatResult, governance: ToolGovernance): GatewayError | undefined {
  try {
    checkToolCalls(result, governance);
    return undefined;
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

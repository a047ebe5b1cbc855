import { type Reservation, computeCost, tokenCostUsd, tokensForChars, unlimitedReservation } from '@svc/billing';
import type { ModelInfo } from '@svc/catalog';
import { type ChatRequest, type IntelligenceMode, type MemoryReport, type OutputConfig, type StreamEvent, type SvcMetadata, type Usage, isGatewayError, isProviderError } from '@svc/core';
import { type ToolGovernance, ToolCallStreamGuard } from '@svc/governance';
import type { OutputVerifier } from '@svc/healing';
import type { Attempt } from './attempt.js';
import { type CacheMiss, storeAnswer } from './cache-stage.js';
import type { ProviderLookup } from './call.js';
import type { Deadline } from './deadline.js';
import type { RoutingDecision } from './decision-log.js';
import { estimateUsage } from './estimate-usage.js';
import type { ChatStreamResponse, GatewayDeps, RequestContext } from './gateway-types.js';
import type { LearnRecorder } from './learn-records.js';
import { buildSvcMetadata, memoryHeader, routingHeaders } from './metadata.js';
import { replicateEvent } from './replicate-stream.js';
import { StreamCollector } from './stream-collect.js';
import { type Shed, type Switches, reportShed, shedMetadata, switchedVerification } from './switches.js';
import { streamReport, verificationPlan } from './verification.js';

/** What the gateway holds that a streamed answer uses. */
export interface StreamOwner {
  deps: GatewayDeps;
  verifier: OutputVerifier;
  recorder: LearnRecorder;
}

/** A stream the call stage opened, and everything the request decided on the way to it. */
export interface OpenedStreamRequest {
  request: ChatRequest;
  context: RequestContext;
  decision: RoutingDecision;
  mode: IntelligenceMode;
  output: OutputConfig;
  /** The model that answers (the one the waterfall reached). */
  model: ModelInfo;
  opened: { first: IteratorResult<StreamEvent>; rest: AsyncIterator<StreamEvent> };
  attempts: Attempt[];
  deadline: Deadline;
  /** Set when the answer may be cached once complete. */
  miss: CacheMiss | undefined;
  providers: ProviderLookup;
  orgProviders: ProviderLookup | undefined;
  governance: ToolGovernance | undefined;
  reservation: Reservation;
  switches: Switches;
  shed: Shed;
  /** Mode `full`: what memory injected into the prompt. */
  memory?: MemoryReport | undefined;
}

/**
 * Stage 5 for a stream: relays the provider's events (tool governance holding calls back,
 * replicated choices where the provider cannot produce `n`), charges streamed tokens to the TPM
 * buckets as they come, and when the stream ends however it ends (complete, failed, client gone)
 * settles the reservation, stores a complete answer in the caches, verifies it (reported only:
 * the chunks are sent) and queues the ledger row and the decision.
 */
export function streamResponse(owner: StreamOwner, stream: OpenedStreamRequest): ChatStreamResponse {
  const { deps, verifier, recorder } = owner;
  const { request, context, decision, mode, output, model, opened, attempts, deadline, miss, providers, orgProviders, governance, reservation, switches, shed, memory } = stream;
  let metadata: SvcMetadata | undefined;
  const replicas = request.n > 1 && providers.get(model.provider)?.multipleChoices === false ? request.n : 1;
  const byok = orgProviders?.get(model.provider) !== undefined;
  // Before the headers, so a verification the switches skip is named in them.
  const plan = switchedVerification(verificationPlan(request, mode, output), request.svc?.outputVerification !== undefined, switches, shed);
  const firstToken = deps.metrics.model(model.provider, model.id).timeToFirstToken;
  async function* events(): AsyncGenerator<StreamEvent> {
    let usage: Usage | undefined;
    // References to the streamed text, joined only when the provider sends no usage (then tokenised).
    const pieces: string[] = [];
    let outcome = 'client_closed';
    // The answer rebuilt from the events once the stream is complete (for the caches and the verifier).
    let complete: ReturnType<StreamCollector['result']> | undefined;
    // Only when the answer will be cached or verified: the events are kept to rebuild it once complete.
    const collector = miss || plan.verify ? new StreamCollector(model.upstreamId) : undefined;
    const track = (event: StreamEvent) => {
      collector?.add(event);
      if (event.type === 'usage') usage = event.usage;
      else if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'refusal-delta') {
        if (pieces.length === 0) firstToken.observe((performance.now() - context.startedAt) / 1000);
        pieces.push(event.text);
      } else if (event.type === 'tool-call-delta') {
        if (pieces.length === 0) firstToken.observe((performance.now() - context.startedAt) / 1000);
        pieces.push(event.argumentsDelta);
      } else return;
      // TPM counts streamed tokens as they are produced (about 4 characters each), every 32 pieces.
      if (limited && pieces.length - charged >= 32) chargeSince();
    };
    const limited = reservation !== unlimitedReservation;
    let charged = 0;
    const chargeSince = () => {
      let chars = 0;
      for (let i = charged; i < pieces.length; i++) chars += pieces[i]!.length;
      charged = pieces.length;
      const tokens = tokensForChars(chars);
      void reservation.charge(tokens, byok ? 0 : tokenCostUsd(model, { completionTokens: tokens }));
    };
    // Tool governance holds a call back until it can judge it; a blocked one ends the stream with an error event.
    const guard = governance ? new ToolCallStreamGuard(governance) : undefined;
    function* emit(event: StreamEvent): Generator<StreamEvent> {
      for (const out of guard ? guard.push(event) : [event]) {
        if (replicas > 1) yield* replicateEvent(out, replicas);
        else yield out;
      }
    }
    try {
      if (!opened.first.done) {
        track(opened.first.value);
        yield* emit(opened.first.value);
      }
      while (true) {
        const next = await opened.rest.next();
        if (next.done) break;
        track(next.value);
        yield* emit(next.value);
      }
      if (guard) for (const out of guard.end()) yield* replicas > 1 ? replicateEvent(out, replicas) : [out];
      outcome = 'ok';
      complete = collector?.result();
      if (complete && miss) storeAnswer(deps.exactCache, deps.semanticCache, request, miss, { result: complete, model: model.id, provider: model.provider, tier: model.tier, storedAt: Date.now() });
    } catch (error) {
      // Our own abort (the client went away) surfaces as an upstream read failure.
      if (context.signal.aborted) return;
      outcome = isGatewayError(error) && error.code === 'tool_call_blocked' ? 'tool_call_blocked' : 'error_after_first_byte';
      if (isProviderError(error) && error.retryable) void deps.breakers?.record(model.id, 'failure');
      throw error;
    } finally {
      deadline.clear();
      if (outcome !== 'ok') void opened.rest.return?.();
      const finalUsage = usage ?? (await estimateUsage(request.messages, pieces.join('')));
      const latencyMs = Math.round(performance.now() - context.startedAt);
      const cost = computeCost(model, finalUsage);
      metadata = buildSvcMetadata({ requestId: context.requestId, requestedModel: request.model, decision, served: model, mode, latencyMs, cost, byok, memory });
      void reservation.settle({ actualTokens: finalUsage.totalTokens, actualCostUsd: byok ? 0 : cost.costUsd });
      // A stream is verified once complete and reported only: its chunks are already sent.
      const report = outcome === 'ok' && plan.verify && request.responseFormat ? streamReport(complete, request.responseFormat, verifier, output) : undefined;
      if (report) metadata.healer_report = report;
      if (plan.notApplied) metadata.not_applied = [...(metadata.not_applied ?? []), 'svc.output_verification'];
      const details: Record<string, unknown> = {};
      if (!usage) {
        details.usageEstimated = true;
        metadata.usage_estimated = true;
      }
      if (replicas > 1) details.replicatedChoices = replicas - 1;
      if (shed.length > 0) details.shed = [...shed];
      shedMetadata(switches, shed, metadata);
      recorder.outcome(context, request, decision, mode, model, attempts, outcome, finalUsage, cost, latencyMs, true, details);
    }
  }
  const headers = { ...routingHeaders(context.requestId, context.caller.org.id, decision, model, mode), ...memoryHeader(memory), ...reservation.headers };
  reportShed(switches, shed, deps.metrics, headers);
  return {
    kind: 'stream',
    events: events(),
    headers,
    model: model.id,
    metadata: () => metadata,
  };
}

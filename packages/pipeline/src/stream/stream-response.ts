import { computeCost, tokenCostUsd, tokensForChars } from '@svc/billing';
import type { ModelInfo } from '@svc/catalog';
import { type StreamEvent, type SvcMetadata, type Usage, isGatewayError, isProviderError } from '@svc/core';
import { ToolCallStreamGuard } from '@svc/governance';
import type { OutputVerifier } from '@svc/healing';
import { type CacheMiss, storeAnswer } from '../chat/cache-stage.js';
import type { CallPlan } from '../chat/call-plan.js';
import type { ChatTurn } from '../chat/chat-turn.js';
import { finish } from '../chat/finish.js';
import type { Outbound } from '../chat/outbound.js';
import { estimateUsage } from '../estimate-usage.js';
import type { ChatStreamResponse, GatewayDeps } from '../gateway-types.js';
import type { LearnRecorder } from '../learn/learn-records.js';
import { memoryHeader, routingHeaders } from '../chat/metadata.js';
import { replicateEvent } from './replicate-stream.js';
import { StreamCollector } from './stream-collect.js';
import { reportShed, switchedVerification } from '../switches/switches.js';
import { streamReport, verificationPlan } from '../chat/verification.js';

/** What the gateway holds that a streamed answer uses. */
export interface StreamOwner {
  deps: GatewayDeps;
  verifier: OutputVerifier;
  recorder: LearnRecorder;
}

/** A stream the call stage opened for a turn. */
export interface OpenedStream {
  /** The model that answers (the one the waterfall reached). */
  model: ModelInfo;
  opened: { first: IteratorResult<StreamEvent>; rest: AsyncIterator<StreamEvent> };
  plan: CallPlan;
  outbound: Outbound;
  /** Set when the answer may be cached once complete. */
  miss: CacheMiss | undefined;
}

/**
 * Stage 5 for a stream: relays the provider's events (tool governance holding calls back,
 * replicated choices where the provider cannot produce `n`), charges streamed tokens to the TPM
 * buckets as they come, and when the stream ends however it ends (complete, failed, client gone)
 * stores a complete answer in the caches, verifies it (reported only: the chunks are sent),
 * finishes the request (`finish`: metadata, ledger row, decision) and ends its spend.
 */
export function streamResponse(owner: StreamOwner, turn: ChatTurn, stream: OpenedStream): ChatStreamResponse {
  const { deps, verifier, recorder } = owner;
  const { request, exchange: context, output, governance, switches, shed, spend } = turn;
  const { model, opened, plan, miss } = stream;
  const { deadline, providers } = plan;
  const mode = context.mode;
  let metadata: SvcMetadata | undefined;
  const replicas = request.n > 1 && providers.get(model.provider)?.multipleChoices === false ? request.n : 1;
  const byok = plan.own?.get(model.provider) !== undefined;
  // Before the headers, so a verification the switches skip is named in them.
  const verification = switchedVerification(verificationPlan(request, mode, output), request.svc?.outputVerification !== undefined, switches, shed);
  const firstToken = deps.metrics.model(model.provider, model.id).timeToFirstToken;
  async function* events(): AsyncGenerator<StreamEvent> {
    let usage: Usage | undefined;
    // References to the streamed text, joined only when the provider sends no usage (then tokenised).
    const pieces: string[] = [];
    let outcome = 'client_closed';
    // The answer rebuilt from the events once the stream is complete (for the caches and the verifier).
    let complete: ReturnType<StreamCollector['result']> | undefined;
    // Only when the answer will be cached or verified: the events are kept to rebuild it once complete.
    const collector = miss || verification.verify ? new StreamCollector(model.upstreamId) : undefined;
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
    const limited = spend.limited;
    let charged = 0;
    const chargeSince = () => {
      let chars = 0;
      for (let i = charged; i < pieces.length; i++) chars += pieces[i]!.length;
      charged = pieces.length;
      const tokens = tokensForChars(chars);
      spend.charge(tokens, byok ? 0 : tokenCostUsd(model, { completionTokens: tokens }));
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
      if (complete && miss) storeAnswer(deps.exactCache, deps.semanticCache, request, miss, { result: complete, model: model.id, provider: model.provider, tier: model.tier, storedAt: Date.now(), requestId: context.requestId });
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
      const details: Record<string, unknown> = {};
      if (!usage) details.usageEstimated = true;
      if (replicas > 1) details.replicatedChoices = replicas - 1;
      const spent = { usage: finalUsage, cost };
      metadata = finish(recorder, turn, plan, { model, outcome, answering: spent, spent, latencyMs, stream: true, details, memory: stream.outbound.memory });
      spend.end();
      // A stream is verified once complete and reported only: its chunks are already sent.
      const report = outcome === 'ok' && verification.verify && request.responseFormat ? streamReport(complete, request.responseFormat, verifier, output) : undefined;
      if (report) metadata.healer_report = report;
      if (verification.notApplied) metadata.not_applied = [...(metadata.not_applied ?? []), 'svc.output_verification'];
      if (!usage) metadata.usage_estimated = true;
    }
  }
  const headers = { ...routingHeaders(context.requestId, context.caller.org.id, turn.decision, model, mode), ...memoryHeader(stream.outbound.memory), ...spend.headers };
  reportShed(switches, shed, deps.metrics, headers);
  return {
    kind: 'stream',
    events: events(),
    headers,
    model: model.id,
    metadata: () => metadata,
  };
}

import { computeCost } from '@svc/billing';
import type { ModelInfo } from '@svc/catalog';
import { type StreamEvent, type SvcMetadata, isGatewayError, isProviderError } from '@svc/core';
import { ToolCallStreamGuard } from '@svc/governance';
import type { OutputVerifier, VerificationPlan } from '@svc/healing';
import { overDeadline } from '../call/deadline.js';
import { type CacheMiss, storeAnswer } from '../chat/cache-stage.js';
import type { CallPlan } from '../chat/call-plan.js';
import type { ChatTurn } from '../chat/chat-turn.js';
import { tracedFinish } from '../stage-spans.js';
import type { Outbound } from '../chat/outbound.js';
import { estimateUsage } from '../estimate-usage.js';
import type { ChatStreamResponse, GatewayDeps } from '../gateway-types.js';
import type { LearnRecorder } from '../learn/learn-records.js';
import { memoryHeader, routingHeaders } from '../chat/metadata.js';
import { replicateEvent } from './replicate-stream.js';
import { offerAnswerForShadow } from '../shadow/shadow-offer.js';
import { StreamTally } from './stream-tally.js';
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
  const { request, exchange, output, switches, shed, spend } = turn;
  const { model, plan, miss } = stream;
  const replicas = request.n > 1 && plan.providers.get(model.provider)?.multipleChoices === false ? request.n : 1;
  // Before the headers, so a verification the switches skip is named in them.
  const verification = switchedVerification(verificationPlan(request, exchange.mode, output), request.svc?.outputVerification !== undefined, switches, shed);
  const tally = new StreamTally(model, spend, {
    byok: plan.own?.get(model.provider) !== undefined,
    // Only when the answer will be cached or verified: the events are kept to rebuild it once complete.
    collect: miss !== undefined || verification.verify,
    startedAt: exchange.startedAt,
    firstToken: owner.deps.metrics.model(model.provider, model.id).timeToFirstToken,
  });
  const ending: StreamEnding = { owner, turn, stream, tally, verification, replicas, metadata: undefined };
  const headers = { ...routingHeaders(exchange.requestId, exchange.caller.org.id, turn.decision, model, exchange.mode), ...memoryHeader(stream.outbound.memory), ...spend.headers };
  reportShed(switches, shed, owner.deps.metrics, headers);
  return { kind: 'stream', events: relay(ending), headers, model: model.id, metadata: () => ending.metadata };
}

/** One stream on its way: what relaying it needs and, once it ended, its `svc_metadata`. */
interface StreamEnding {
  owner: StreamOwner;
  turn: ChatTurn;
  stream: OpenedStream;
  tally: StreamTally;
  verification: VerificationPlan;
  /** Copies of each choice to send (the provider cannot produce `n`), else 1. */
  replicas: number;
  metadata: SvcMetadata | undefined;
}

/**
 * The provider's events to the client, tool governance holding a call back until it can judge it
 * (a blocked one ends the stream with an error event); however it ends, `endStream` runs.
 */
async function* relay(ending: StreamEnding): AsyncGenerator<StreamEvent> {
  const { turn, stream, tally, replicas } = ending;
  const { opened, model } = stream;
  const guard = turn.governance ? new ToolCallStreamGuard(turn.governance) : undefined;
  function* emit(events: Iterable<StreamEvent>): Generator<StreamEvent> {
    for (const out of events) yield* replicas > 1 ? replicateEvent(out, replicas) : [out];
  }
  // After-answer guardrails judge the whole answer: its finish and usage events wait for them, so a refused stream never ends looking complete.
  const held: StreamEvent[] | undefined = turn.guardrails?.checksAnswer ? [] : undefined;
  let outcome = 'client_closed';
  try {
    let next = opened.first;
    while (!next.done) {
      tally.track(next.value);
      const out = guard ? guard.push(next.value) : [next.value];
      yield* emit(held ? holdTerminal(out, held) : out);
      next = await opened.rest.next();
    }
    if (guard) yield* emit(held ? holdTerminal(guard.end(), held) : guard.end());
    if (held) {
      await turn.guardrails!.checkAnswer([tally.text()]);
      yield* emit(held);
    }
    outcome = 'ok';
  } catch (error) {
    // Our own abort (the client went away) surfaces as an upstream read failure; the request's
    // deadline aborts the same signal when the exchange has its own (`Exchange.abort`).
    if (turn.exchange.signal.aborted && !stream.plan.deadline.expired) return;
    outcome = refusalOutcome(error);
    if (isProviderError(error) && error.retryable && !stream.plan.deadline.expired) void ending.owner.deps.breakers?.record(model.id, 'failure');
    throw overDeadline(stream.plan.deadline, error);
  } finally {
    await endStream(ending, outcome);
  }
}

/** The events to send now; `finish` and `usage` events are kept in `held` until the after-answer guardrails passed. */
function holdTerminal(events: Iterable<StreamEvent>, held: StreamEvent[]): StreamEvent[] {
  const now: StreamEvent[] = [];
  for (const event of events) (event.type === 'finish' || event.type === 'usage' ? held : now).push(event);
  return now;
}

/** The ledger outcome of a stream that threw: a policy's refusal, or a failure after the first byte. */
function refusalOutcome(error: unknown): string {
  if (!isGatewayError(error)) return 'error_after_first_byte';
  if (error.code === 'tool_call_blocked') return 'tool_call_blocked';
  return error.code.startsWith('guardrail_') ? 'guardrail_refused' : 'error_after_first_byte';
}

/**
 * A stream's ending, however it ended: a complete answer is stored in the caches and verified
 * (reported only: its chunks are sent), the usage is the provider's or estimated from the text,
 * `finish` writes the metadata, ledger row and decision, and the spend is settled.
 */
async function endStream(ending: StreamEnding, outcome: string): Promise<void> {
  const { owner, turn, stream, tally, verification } = ending;
  const { request, exchange } = turn;
  const { model, plan, miss } = stream;
  plan.deadline.release();
  if (outcome !== 'ok') void stream.opened.rest.return?.();
  const complete = outcome === 'ok' ? tally.result() : undefined;
  if (complete && miss) storeAnswer(owner.deps.exactCache, owner.deps.semanticCache, request, miss, { result: complete, model: model.id, provider: model.provider, tier: model.tier, storedAt: Date.now(), requestId: exchange.requestId });
  const usage = tally.usage ?? (await estimateUsage(request.messages, tally.text()));
  const details: Record<string, unknown> = {};
  if (!tally.usage) details.usageEstimated = true;
  if (ending.replicas > 1) details.replicatedChoices = ending.replicas - 1;
  const spent = { usage, cost: computeCost(model, usage) };
  const latencyMs = Math.round(performance.now() - exchange.startedAt);
  const metadata = tracedFinish(owner.recorder, turn, { kind: 'answered', plan, model, outcome, answering: spent, spent, latencyMs, stream: true, details, memory: stream.outbound.memory });
  turn.spend.end();
  const report = complete && verification.verify && request.responseFormat ? streamReport(complete, request.responseFormat, owner.verifier, turn.output) : undefined;
  if (report) metadata.healer_report = report;
  if (verification.notApplied) metadata.not_applied = [...(metadata.not_applied ?? []), 'svc.output_verification'];
  if (!tally.usage) metadata.usage_estimated = true;
  ending.metadata = metadata;
  // A complete stream is offered to shadow judging once its last event was relayed (the offer returns at once; the text is joined only when offered).
  if (outcome === 'ok') offerAnswerForShadow(owner.deps, request, exchange, { model: model.id, text: () => tally.answerText(), completionTokens: usage.completionTokens, taskKind: metadata.task_family });
}

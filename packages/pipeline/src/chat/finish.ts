import type { Cost } from '@svc/billing';
import type { ModelInfo } from '@svc/catalog';
import type { MemoryReport, SvcMetadata, Usage } from '@svc/core';
import type { LearnExtra, LearnRecorder } from '../learn/learn-records.js';
import { shedMetadata } from '../switches/switches.js';
import { hitMetadata } from './cache-hit-response.js';
import type { CacheHit } from './cache-stage.js';
import type { CallPlan } from './call-plan.js';
import type { ChatTurn } from './chat-turn.js';
import { buildSvcMetadata } from './metadata.js';
import { unappliedReasoning } from './reasoning-controls.js';

/** How a request a model answered ended: JSON or stream, complete, refused by a policy or cut. */
export interface AnsweredEnding {
  kind: 'answered';
  /** The calls the request made (attempts, the organisation's own keys). */
  plan: CallPlan;
  /** The model that answered. */
  model: ModelInfo;
  /** `ok`, `client_closed`, `tool_call_blocked`, `error_after_first_byte`. */
  outcome: string;
  /** The answering call's usage and cost: its model's counters and the router's lesson. */
  answering: { usage: Usage | undefined; cost: Cost | undefined };
  /** Every call the request paid for (the answer, re-asks, a rejected draft): its bill and its settlement. */
  spent: { usage: Usage | undefined; cost: Cost | undefined };
  latencyMs: number;
  stream: boolean;
  /** Decision-log details (replicated choices, healing, re-asks, speculation); the shed stages are added here. */
  details: Record<string, unknown>;
  learn?: Pick<LearnExtra, 'quality' | 'rejectedDraft'>;
  /** Mode `full`: what memory injected. */
  memory: MemoryReport | undefined;
}

/** How a request the cache answered ended: the stored answer, free, its usage every prompt token cached. */
export interface CachedEnding {
  kind: 'cached';
  hit: CacheHit;
  usage: Usage | undefined;
  /** Zero, with the baseline the hit saved. */
  cost: Cost | undefined;
  latencyMs: number;
  /** The catalog's entry of the model that once answered, when it is still served. */
  model: ModelInfo | undefined;
}

export type Ending = AnsweredEnding | CachedEnding;

/**
 * Stages 5 and 6 of every answer, from a model (JSON or stream) or from the cache alike: the
 * answer's `svc_metadata` (with the stages the switches shed), the ledger row, the decision and
 * the router's lesson (none for a hit), and the request's spend for its settlement. An
 * organisation's own key is paid by the organisation: it counts against rate limits, not the
 * budget; a hit consumes no tokens and costs nothing, only the request counts.
 */
export function finish(recorder: LearnRecorder, turn: ChatTurn, ending: Ending): SvcMetadata {
  const metadata = ending.kind === 'cached' ? finishHit(recorder, turn, ending) : finishAnswer(recorder, turn, ending);
  shedMetadata(turn.switches, turn.shed, metadata);
  if (turn.guardrails) metadata.guardrails = [...turn.guardrails.decisions];
  return metadata;
}

function finishAnswer(recorder: LearnRecorder, turn: ChatTurn, ending: AnsweredEnding): SvcMetadata {
  const { exchange, request, decision, shed } = turn;
  const { plan, model, spent, details } = ending;
  const byok = plan.own?.get(model.provider) !== undefined;
  const metadata = buildSvcMetadata({ requestId: exchange.requestId, requestedModel: request.model, decision, served: model, mode: exchange.mode, latencyMs: ending.latencyMs, cost: spent.cost, byok, memory: ending.memory });
  const unapplied = unappliedReasoning(request, model);
  if (unapplied.length > 0) metadata.not_applied = [...(metadata.not_applied ?? []), ...unapplied];
  if (shed.length > 0) details.shed = [...shed];
  if (turn.guardrails && turn.guardrails.decisions.length > 0) details.guardrails = turn.guardrails.decisions;
  const billed = spent.usage && spent.cost ? { usage: spent.usage, cost: spent.cost } : undefined;
  recorder.outcome({
    exchange,
    request,
    decision,
    model,
    attempts: plan.attempts,
    outcome: ending.outcome,
    usage: ending.answering.usage,
    cost: ending.answering.cost,
    latencyMs: ending.latencyMs,
    stream: ending.stream,
    details,
    // One shape for every ending: what is absent is undefined, as outcome() reads it.
    extra: { quality: ending.learn?.quality, rejectedDraft: ending.learn?.rejectedDraft, billed, memory: ending.memory },
  });
  turn.spend.record({ actualTokens: spent.usage?.totalTokens ?? 0, actualCostUsd: byok ? 0 : (spent.cost?.costUsd ?? 0) });
  return metadata;
}

function finishHit(recorder: LearnRecorder, turn: ChatTurn, ending: CachedEnding): SvcMetadata {
  const { exchange, request } = turn;
  const { hit, usage, cost, latencyMs } = ending;
  const metadata = hitMetadata({ request, exchange, hit, cost, latencyMs });
  // A hit ran no memory stage: it reports nothing injected (the answer was cached for this scope only).
  if (turn.memory) metadata.memory = { injected: 0, tokens: 0 };
  recorder.cacheHit({ exchange, request, answer: hit.answer, hit, usage, cost, latencyMs, model: ending.model });
  turn.spend.record({ actualTokens: 0, actualCostUsd: 0 });
  return metadata;
}

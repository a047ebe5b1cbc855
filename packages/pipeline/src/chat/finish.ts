import type { Cost } from '@svc/billing';
import type { ModelInfo } from '@svc/catalog';
import type { MemoryReport, SvcMetadata, Usage } from '@svc/core';
import type { LearnExtra, LearnRecorder } from '../learn/learn-records.js';
import { buildSvcMetadata } from './metadata.js';
import { shedMetadata } from '../switches/switches.js';
import type { CallPlan } from './call-plan.js';
import type { ChatTurn } from './chat-turn.js';

/** How a request a model answered ended: JSON or stream, complete, refused by a policy or cut. */
export interface Ending {
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
  learn?: Omit<LearnExtra, 'billed'>;
  /** Mode `full`: what memory injected. */
  memory: MemoryReport | undefined;
}

/**
 * Stages 5 and 6 of every answer a model gave, JSON and stream alike: the answer's `svc_metadata`
 * (with the stages the switches shed), the ledger row, the decision and the router's lesson, and
 * the request's spend for its settlement. An organisation's own key is paid by the organisation:
 * it counts against rate limits, not the budget.
 */
export function finish(recorder: LearnRecorder, turn: ChatTurn, plan: CallPlan, ending: Ending): SvcMetadata {
  const { exchange, request, decision, switches, shed } = turn;
  const { model, spent, details } = ending;
  const byok = plan.own?.get(model.provider) !== undefined;
  const metadata = buildSvcMetadata({ requestId: exchange.requestId, requestedModel: request.model, decision, served: model, mode: exchange.mode, latencyMs: ending.latencyMs, cost: spent.cost, byok, memory: ending.memory });
  if (shed.length > 0) details.shed = [...shed];
  shedMetadata(switches, shed, metadata);
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
    extra: { ...ending.learn, ...(billed ? { billed } : {}) },
  });
  turn.spend.record({ actualTokens: spent.usage?.totalTokens ?? 0, actualCostUsd: byok ? 0 : (spent.cost?.costUsd ?? 0) });
  return metadata;
}

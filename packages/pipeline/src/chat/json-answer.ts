import { type Cost, computeCost, sumCosts } from '@svc/billing';
import type { ModelInfo } from '@svc/catalog';
import { type ChatResult, type Usage, isGatewayError, randomId } from '@svc/core';
import type { OutputVerifier } from '@svc/healing';
import type { HistogramSeries } from '@svc/telemetry';
import { storeAnswer, type CacheMiss } from './cache-stage.js';
import { callChat } from '../call/call.js';
import { overDeadline } from '../call/deadline.js';
import type { ChatJsonResponse, GatewayDeps } from '../gateway-types.js';
import type { LearnRecorder } from '../learn/learn-records.js';
import { answerHeaders, memoryHeader, routingHeaders } from './metadata.js';
import { restoreResult } from './memory-stage.js';
import { replicateChoices } from './replicate-choices.js';
import { type Speculation, speculate } from './speculation.js';
import { reportShed, switchedVerification } from '../switches/switches.js';
import { type Verified, addUsage, healOptions, verificationPlan, verifyAnswer } from './verification.js';
import type { CallPlan } from './call-plan.js';
import type { ChatTurn } from './chat-turn.js';
import { tracedFinish } from '../stage-spans.js';
import { blockedCallError } from './open-turn.js';
import { answerTexts } from './guardrail-stage.js';
import type { Outbound } from './outbound.js';

/** What the JSON path uses of the gateway. */
export interface JsonOwner {
  deps: GatewayDeps;
  verifier: OutputVerifier;
  recorder: LearnRecorder;
  /** The gateway's own time per answer (`gateway_overhead_seconds{endpoint="chat"}`). */
  overhead: HistogramSeries;
}

/** A JSON request's way to its answer, from the call on. */
export interface JsonCall {
  outbound: Outbound;
  plan: CallPlan;
  miss: CacheMiss | undefined;
  /** The cheaper model to draft with (`svc.enable_speculation`), when one applies. */
  draft: ModelInfo | undefined;
  /** `performance.now()` once routing (and memory) was done. */
  routedAt: number;
}

/** The model's answer: drafted, called through the waterfall, verified. */
interface Answered {
  result: ChatResult;
  model: ModelInfo;
  /** Time spent waiting for providers (drafts and re-asks included): not the gateway's overhead. */
  providerMs: number;
  /** The answering call's own usage, before re-asks and a rejected draft are added. */
  usage: Usage | undefined;
  verified: Verified | undefined;
}

/**
 * Stages 4 to 6 of a non-stream request: a speculative draft when asked, the waterfall, output
 * verification, tool governance of the answer, then the answer stored, billed and logged. Whatever
 * fails, the decision is logged and a paid draft is billed.
 */
export async function answerJson(owner: JsonOwner, turn: ChatTurn, call: JsonCall): Promise<ChatJsonResponse> {
  const { plan, outbound, draft } = call;
  let speculation: Speculation | undefined;
  try {
    speculation = draft ? await speculate(outbound.request, draft, plan.settings, plan.attempts, healOptions(turn.output, owner.verifier)) : undefined;
    const answered = await callForAnswer(owner, turn, call, speculation);
    if (turn.guardrails?.checksAnswer) await refuseByGuardrails(owner, turn, call, answered);
    return finishJson(owner, turn, call, answered, speculation);
  } catch (error) {
    plan.deadline.release();
    const failure = overDeadline(plan.deadline, error);
    recordFailure(owner.recorder, turn, plan, speculation, failure);
    throw failure;
  }
}

async function callForAnswer(owner: JsonOwner, turn: ChatTurn, call: JsonCall, speculation: Speculation | undefined): Promise<Answered> {
  const { request, exchange, output, switches, shed } = turn;
  const { plan, outbound } = call;
  const called = speculation?.accepted
    ? { value: speculation.result!, model: speculation.draft, providerMs: speculation.providerMs }
    : await callChat(outbound.request, turn.decision.waterfall, plan.settings, plan.attempts);
  const { model } = called;
  let { value: result, providerMs } = called;
  // A rejected draft was a provider call too: not the gateway's overhead.
  if (speculation && !speculation.accepted) providerMs += speculation.providerMs;
  const verification = switchedVerification(verificationPlan(request, exchange.mode, output), request.svc?.outputVerification !== undefined, switches, shed);
  let verified: Verified | undefined;
  if (speculation?.accepted) verified = { result, healerReport: speculation.healerReport, reasks: [], notApplied: false };
  else if (verification.verify || verification.notApplied) {
    const before = performance.now();
    const crossModel = output.crossModelCandidate === null ? undefined : owner.deps.catalog.get(output.crossModelCandidate);
    const reask = { waterfall: turn.decision.waterfall, settings: plan.settings, attempts: plan.attempts };
    verified = await verifyAnswer({ request: outbound.request, result, model }, verification, reask, { config: output, verifier: owner.verifier, crossModel });
    result = verified.result;
    // A re-ask is a provider call: it is not the gateway's overhead.
    if (verified.reasks.length > 0) providerMs += performance.now() - before;
    if (verified.notApplied) turn.decision = { ...turn.decision, notApplied: [...turn.decision.notApplied, 'svc.output_verification'] };
  }
  plan.deadline.release();
  return { result, model, providerMs, usage: called.value.usage, verified };
}

function finishJson(owner: JsonOwner, turn: ChatTurn, call: JsonCall, answered: Answered, speculation: Speculation | undefined): ChatJsonResponse {
  const { request, exchange } = turn;
  const { model, verified } = answered;
  refuseBlockedCall(owner, turn, call, answered);
  call.outbound.remember();
  let result = call.outbound.restore ? restoreResult(answered.result, call.outbound.restore) : answered.result;
  const replicated = replicateChoices(result, request.n);
  if (call.miss) storeAnswer(owner.deps.exactCache, owner.deps.semanticCache, request, call.miss, { result, model: model.id, provider: model.provider, tier: model.tier, storedAt: Date.now(), requestId: exchange.requestId });
  const elapsed = performance.now() - exchange.startedAt;
  owner.overhead.observe(Math.max(0, elapsed - answered.providerMs) / 1000);
  const latencyMs = Math.round(elapsed);
  const bill = billOf(owner.recorder, answered, speculation);
  // The client is billed for the answer, its corrections and a rejected draft: usage covers every call.
  if (bill.usage !== result.usage) result = { ...result, usage: bill.usage! };
  const details = jsonDetails(replicated, verified, speculation);
  const lastReask = verified?.reasks.at(-1);
  const metadata = tracedFinish(owner.recorder, turn, {
    kind: 'answered',
    plan: call.plan,
    model,
    outcome: 'ok',
    answering: { usage: answered.usage, cost: bill.answering },
    spent: { usage: result.usage, cost: bill.cost },
    latencyMs,
    stream: false,
    details,
    learn: {
      // What verification found is the router's quality signal: a re-ask means the answer failed, healing is worth its confidence.
      quality: lastReask ? 0 : verified?.healerReport ? verified.healerReport.confidence : undefined,
      rejectedDraft: bill.rejectedDraft,
    },
    memory: call.outbound.memory,
  });
  if (verified?.healerReport) metadata.healer_report = verified.healerReport;
  const breakdown = { route_ms: round1(call.routedAt - exchange.startedAt), provider_ms: round1(answered.providerMs), total_ms: latencyMs };
  // One record, filled in order (the same keys and order as spreading each into the next).
  const headers = Object.assign(routingHeaders(exchange.requestId, exchange.caller.org.id, turn.decision, model, exchange.mode), memoryHeader(call.outbound.memory), answerHeaders(result.usage, bill.cost, breakdown, `aud_${randomId(20)}`));
  if (speculation?.accepted) headers['x-svc-speculation-accepted'] = '1';
  reportShed(turn.switches, turn.shed, owner.deps.metrics, headers);
  return { kind: 'json', result, metadata, headers: Object.assign(headers, turn.spend.headers) };
}

/** An answer holding a tool call the organisation's policy blocks is refused (422): it was paid for, so its spend is recorded first. */
function refuseBlockedCall(owner: JsonOwner, turn: ChatTurn, call: JsonCall, answered: Answered): void {
  const blocked = turn.governance ? blockedCallError(answered.result, turn.governance) : undefined;
  if (!blocked) return;
  const cost = answered.usage ? computeCost(answered.model, answered.usage) : undefined;
  const spent = { usage: answered.usage, cost };
  const latencyMs = Math.round(performance.now() - turn.exchange.startedAt);
  tracedFinish(owner.recorder, turn, { kind: 'answered', plan: call.plan, model: answered.model, outcome: 'tool_call_blocked', answering: spent, spent, latencyMs, stream: false, details: {}, memory: call.outbound.memory });
  throw blocked;
}

/** The after-answer guardrails over the answer; a refusal is recorded (the answer was paid for) and thrown (422 `guardrail_<check>`). */
async function refuseByGuardrails(owner: JsonOwner, turn: ChatTurn, call: JsonCall, answered: Answered): Promise<void> {
  try {
    await turn.guardrails!.checkAnswer(answerTexts(answered.result));
  } catch (error) {
    const cost = answered.usage ? computeCost(answered.model, answered.usage) : undefined;
    const spent = { usage: answered.usage, cost };
    const latencyMs = Math.round(performance.now() - turn.exchange.startedAt);
    tracedFinish(owner.recorder, turn, { kind: 'answered', plan: call.plan, model: answered.model, outcome: 'guardrail_refused', answering: spent, spent, latencyMs, stream: false, details: {}, memory: call.outbound.memory });
    throw error;
  }
}

/** What the request is billed: the answer, every re-ask and a rejected draft, each counted on its own model. */
function billOf(recorder: LearnRecorder, answered: Answered, speculation: Speculation | undefined): { usage: Usage | undefined; cost: Cost | undefined; answering: Cost | undefined; rejectedDraft: ModelInfo | undefined } {
  const answering = answered.result.usage ? computeCost(answered.model, answered.result.usage) : undefined;
  let usage = answered.result.usage;
  let cost = answering;
  for (const reask of answered.verified?.reasks ?? []) {
    if (!reask.usage) continue;
    const reaskCost = computeCost(reask.model, reask.usage);
    recorder.countSpend(reask.model, reask.usage, reaskCost);
    cost = cost ? sumCosts(cost, reaskCost) : reaskCost;
    usage = addUsage(usage, reask.usage);
  }
  const rejected = speculation && !speculation.accepted && speculation.usage ? speculation : undefined;
  if (rejected?.usage) {
    const draftCost = computeCost(rejected.draft, rejected.usage);
    recorder.countSpend(rejected.draft, rejected.usage, draftCost);
    cost = cost ? sumCosts(cost, draftCost) : draftCost;
    usage = addUsage(usage, rejected.usage);
  }
  return { usage, cost, answering, rejectedDraft: rejected?.draft };
}

function jsonDetails(replicated: number, verified: Verified | undefined, speculation: Speculation | undefined): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  if (replicated) details.replicatedChoices = replicated;
  if (verified?.healerReport) details.healing = { stage: verified.healerReport.stage, confidence: verified.healerReport.confidence };
  const lastReask = verified?.reasks.at(-1);
  if (lastReask) details.reask = { model: lastReask.model.id, valid: lastReask.valid, ...(verified!.reasks.length > 1 ? { count: verified!.reasks.length } : {}) };
  if (speculation) details.speculation = { draft: speculation.draft.id, accepted: speculation.accepted };
  return details;
}

/**
 * The decision of a request that failed after routing, and what a paid draft cost: its ledger
 * row, and the request's settlement when nothing else was recorded.
 */
function recordFailure(recorder: LearnRecorder, turn: ChatTurn, plan: CallPlan, speculation: Speculation | undefined, error: unknown): void {
  const { exchange, request, decision } = turn;
  recorder.failure({ exchange, request, decision, attempts: plan.attempts });
  const draft = speculation && !speculation.accepted ? speculation : undefined;
  if (!draft?.usage) return;
  const cost = computeCost(draft.draft, draft.usage);
  recorder.countSpend(draft.draft, draft.usage, cost);
  const status = isGatewayError(error) ? error.status : 500;
  recorder.usage({ exchange, model: draft.draft, usage: draft.usage, cost, latencyMs: Math.round(performance.now() - exchange.startedAt), status, stream: false, usageEstimated: false, tags: request.metadata ?? null, createdAt: new Date() });
  if (!turn.spend.recorded) turn.spend.record({ actualTokens: draft.usage.totalTokens, actualCostUsd: plan.own?.get(draft.draft.provider) ? 0 : cost.costUsd });
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

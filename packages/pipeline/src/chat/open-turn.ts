import type { ModelInfo } from '@svc/catalog';
import { type ChatRequest, type ChatResult, type GatewayError, defaultOutputConfig, isGatewayError } from '@svc/core';
import { type ToolGovernance, checkDeclaredTools, checkToolCalls } from '@svc/governance';
import { type Reservation, callerLimits, completionEstimate, tokenCostUsd, unlimitedReservation } from '@svc/billing';
import { countRejection } from '../call/call-metrics.js';
import type { Exchange } from '../exchange.js';
import type { GatewayDeps } from '../gateway-types.js';
import { noteEndUserSubject } from '../learn/access-record.js';
import { requestMemory } from './memory-stage.js';
import { NORMAL, isOn, shedList } from '../switches/switches.js';
import type { ChatRouting } from './chat-routing.js';
import type { ChatTurn } from './chat-turn.js';
import type { TurnGuardrails } from './guardrail-stage.js';
import { RequestSpend } from './request-spend.js';

type OpenDeps = Pick<GatewayDeps, 'governance' | 'limiter' | 'metrics' | 'switches' | 'memory'>;

/**
 * The first stages of a chat request: tool governance of the declared tools, routing (it runs
 * before the cache even though a hit ignores it: it is synchronous and cheap, and a chain's step
 * limits must count cached steps too), admission against the limits at the first choice's prices,
 * the switches snapshot and the request's memory scope.
 */
export async function openTurn(deps: OpenDeps, routing: ChatRouting, request: ChatRequest, exchange: Exchange, guardrails?: TurnGuardrails): Promise<ChatTurn> {
  const { org } = exchange.caller;
  const governance = await governanceOf(deps, request, org.id);
  const routed = routing.route(request, exchange);
  const decision = routed instanceof Promise ? await routed : routed;
  const reservation = deps.limiter ? await admit(deps, exchange, request, decision.model, decision.promptTokens) : unlimitedReservation;
  const switches = deps.switches?.current ?? NORMAL;
  // Full mode with memory: answers are cached only for the memory scope whose facts they may hold.
  const memory = exchange.mode === 'full' && deps.memory !== undefined && isOn(switches, 'memory') ? requestMemory(request, exchange.caller, exchange.endUser) : undefined;
  // The access log shows the end user as this same subject: hashed once per request.
  if (memory && (exchange.endUser ?? request.user) !== undefined) noteEndUserSubject(exchange.access, memory.scope.subject);
  return {
    request,
    exchange,
    output: org.outputConfig ?? defaultOutputConfig,
    governance,
    guardrails,
    decision,
    spend: new RequestSpend(reservation),
    switches,
    shed: shedList(switches),
    memory,
    partition: memory?.partition ?? { orgId: org.id },
    miss: undefined,
    outbound: undefined,
    streamOwnsEnding: false,
  };
}

/**
 * Tool governance of the caller's organisation, for requests that declare tools (no tool, no
 * check, no await); an org without a policy costs one cached lookup. Declared tools are checked
 * here: 404 tool_not_registered / 422 tool_call_blocked before any provider call.
 */
async function governanceOf(deps: OpenDeps, request: ChatRequest, orgId: string): Promise<ToolGovernance | undefined> {
  const source = deps.governance;
  if (!source || !request.tools || request.tools.length === 0) return undefined;
  const governance = await source.get(orgId);
  if (!governance.active) return undefined;
  checkDeclaredTools(request, governance);
  return governance;
}

/**
 * Admission against the organisation's limits with an upper-bound estimate: the prompt plus
 * `max_tokens` (when unset 1,000, within what the TPM limits leave: `completionEstimate`) at the
 * first choice's prices. Throws 429 / 402.
 */
async function admit(deps: OpenDeps, exchange: Exchange, request: ChatRequest, model: ModelInfo, promptTokens: number): Promise<Reservation> {
  const limits = callerLimits(exchange.caller);
  const completion = completionEstimate(limits, promptTokens, request.maxTokens);
  try {
    return await deps.limiter!.admit({
      orgId: exchange.caller.org.id,
      keyId: exchange.caller.keyId,
      limits,
      estimatedTokens: promptTokens + completion,
      estimatedCostUsd: tokenCostUsd(model, { promptTokens, completionTokens: completion }),
      background: exchange.background === true,
      budgetHeld: exchange.budgetHeld === true,
    });
  } catch (error) {
    countRejection(deps.metrics, error);
    throw error;
  }
}

/** The 422 for the first tool call of `result` the policy blocks, if any. */
export function blockedCallError(result: ChatResult, governance: ToolGovernance): GatewayError | undefined {
  try {
    checkToolCalls(result, governance);
    return undefined;
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
}

import type { ModelInfo } from '@svc/catalog';
import type { ChatRequest, ChatResult, HealerReport, IntelligenceMode, Usage } from '@svc/core';
import { type HealOptions, healChatResult } from '@svc/healing';
import type { Attempt } from '../call/attempt.js';
import { type CallSettings, callChat } from '../call/call.js';
import type { RoutingDecision } from '../learn/decision-log.js';

/** The least a healed draft must be trusted to be served instead of the chosen model's answer. */
const MIN_CONFIDENCE = 0.9;

/** What `svc.enable_speculation` did: a draft from a cheaper model, served when verification accepts it. */
export interface Speculation {
  draft: ModelInfo;
  accepted: boolean;
  /** The draft's answer (healed when needed); served only when `accepted`. */
  result: ChatResult | undefined;
  healerReport: HealerReport | undefined;
  /** What the draft cost in tokens, paid whether or not it was accepted. */
  usage: Usage | undefined;
  providerMs: number;
}

function pricePerMTok(model: ModelInfo): number {
  return model.inputPricePerMTok + model.outputPricePerMTok;
}

/**
 * The model to draft with, or undefined when speculation cannot apply. A draft is only worth
 * anything when it can be checked: a non-streamed, single-choice JSON answer without tools, in
 * cache or full mode (output verification is off in proxy mode). The draft comes from the
 * cheapest candidate of the waterfall that is cheaper than the router's choice.
 */
export function speculationDraft(request: ChatRequest, mode: IntelligenceMode, decision: RoutingDecision): ModelInfo | undefined {
  const format = request.responseFormat;
  if (mode === 'proxy' || request.stream || request.n > 1 || (request.tools?.length ?? 0) > 0) return undefined;
  if (!format || format.type === 'text') return undefined;
  let draft: ModelInfo | undefined;
  const ceiling = pricePerMTok(decision.model);
  for (const model of decision.waterfall) {
    const price = pricePerMTok(model);
    if (price < ceiling && (!draft || price < pricePerMTok(draft))) draft = model;
  }
  return draft;
}

/**
 * Asks the draft model once (no fallback, no retry, no hedge: the chosen model is the fallback)
 * and verifies its answer against `response_format`. Accepted when every choice is valid JSON
 * for the format, as written or healed with a confidence of at least 0.9 (or the organisation's
 * higher minimum; never healed when it refuses healing). A failed draft call
 * is an attempt like any other (decision log, breakers) and simply not accepted.
 */
export async function speculate(
  request: ChatRequest,
  draft: ModelInfo,
  settings: CallSettings,
  attempts: Attempt[],
  heal: HealOptions,
): Promise<Speculation> {
  const format = request.responseFormat!;
  const once: CallSettings = { ...settings, maxAttempts: 1, ...(settings.retry ? { retry: { ...settings.retry, maxRetries: 0 } } : {}) };
  if (once.hedging) once.hedging = { ...once.hedging, enabled: false };
  let called: Awaited<ReturnType<typeof callChat>>;
  try {
    called = await callChat(request, [draft], once, attempts);
  } catch {
    return { draft, accepted: false, result: undefined, healerReport: undefined, usage: undefined, providerMs: 0 };
  }
  const healed = healChatResult(called.value, format, heal);
  const confidence = healed.healerReport?.confidence ?? 1;
  const accepted = healed.result.choices.length > 0 && healed.invalidChoices.length === 0 && confidence >= Math.max(MIN_CONFIDENCE, heal.minConfidence ?? 0);
  return { draft, accepted, result: healed.result, healerReport: healed.healerReport, usage: called.value.usage, providerMs: called.providerMs };
}

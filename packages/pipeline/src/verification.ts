import type { ModelInfo } from '@svc/catalog';
import type { ChatRequest, ChatResult, HealerReport, IntelligenceMode, ResponseFormat, Usage } from '@svc/core';
import { type OutputVerifier, type VerificationPlan, buildCorrectionMessages, healChatResult, planVerification } from '@svc/healing';
import type { Attempt } from './attempt.js';
import { type CallSettings, callChat } from './call.js';

/** A second call made to correct an invalid answer; billed and logged on its own. */
export interface Reasked {
  model: ModelInfo;
  usage: Usage | undefined;
  /** Whether the corrected answer passed verification (it then replaced the invalid one). */
  valid: boolean;
}

export interface Verified {
  result: ChatResult;
  healerReport: HealerReport | undefined;
  reask: Reasked | undefined;
  /** `svc.output_verification` was set but cannot apply (proxy mode, no JSON format). */
  notApplied: boolean;
}

export function verificationPlan(request: ChatRequest, mode: IntelligenceMode): VerificationPlan {
  return planVerification({
    mode,
    ...(request.svc?.outputVerification ? { setting: request.svc.outputVerification } : {}),
    ...(request.responseFormat ? { responseFormat: request.responseFormat } : {}),
    ...(request.svc?.reliabilityLevel ? { reliability: request.svc.reliabilityLevel } : {}),
    stream: request.stream,
  });
}

/**
 * Output verification and healing of a JSON answer (cache and full modes): each choice is
 * verified against `response_format`; a repairable one is healed (`healer_report` says how, with
 * an honest confidence); one still invalid is re-asked once when `output_verification` allows:
 * the same model (`native`, `schema`) or the next model of the waterfall (`cross_model`), with the
 * original conversation, the invalid answer and the problems found. A corrected answer replaces
 * the invalid one; otherwise the model's own answer is returned untouched and the report says it
 * is still invalid (confidence 0). Never more than one re-ask.
 */
export async function verifyAnswer(
  request: ChatRequest,
  plan: VerificationPlan,
  result: ChatResult,
  model: ModelInfo,
  waterfall: readonly ModelInfo[],
  settings: CallSettings,
  attempts: Attempt[],
  verifier: OutputVerifier,
): Promise<Verified> {
  const format = request.responseFormat;
  if (!plan.verify || !format) return { result, healerReport: undefined, reask: undefined, notApplied: plan.notApplied };
  const started = performance.now();
  const healed = healChatResult(result, format, { verifier });
  const index = healed.invalidChoices[0];
  if (index === undefined || plan.reask === 'none') return { result: healed.result, healerReport: healed.healerReport ?? stillInvalid(healed, index, started), reask: undefined, notApplied: false };

  const verdict = healed.verifications[index]!;
  const original = result.choices[index]!.message.content ?? '';
  const others = waterfall.filter((m) => m.id !== model.id);
  const targets = plan.reask === 'same_model' || others.length === 0 ? [model] : others;
  const correction: ChatRequest = { ...request, n: 1, stream: false, messages: buildCorrectionMessages({ messages: request.messages, answer: original, result: verdict, format }) };
  let second: { value: ChatResult; model: ModelInfo };
  try {
    second = await callChat(correction, targets, settings, attempts);
  } catch {
    // The first answer stands; the failed re-ask is in the attempts.
    return { result: healed.result, healerReport: stillInvalid(healed, index, started), reask: undefined, notApplied: false };
  }
  const corrected = healChatResult(second.value, format, { verifier });
  const valid = corrected.invalidChoices.length === 0 && corrected.result.choices.length > 0;
  const reask: Reasked = { model: second.model, usage: second.value.usage, valid };
  if (!valid) return { result: healed.result, healerReport: stillInvalid(healed, index, started), reask, notApplied: false };
  const replacement = corrected.result.choices[0]!;
  const choices = healed.result.choices.map((choice) => (choice.index === index ? { ...replacement, index } : choice));
  const report: HealerReport = {
    original,
    healed: replacement.message.content ?? '',
    stage: 3,
    confidence: corrected.verifications[0]?.confidence ?? 1,
    healing_time_ms: Math.round((performance.now() - started) * 10) / 10,
  };
  return { result: { ...healed.result, choices }, healerReport: report, reask, notApplied: false };
}

/** The report of an answer that stays invalid: returned as the model wrote it, confidence 0. */
function stillInvalid(healed: ReturnType<typeof healChatResult>, index: number | undefined, started: number): HealerReport | undefined {
  if (index === undefined) return undefined;
  const text = healed.result.choices[index]?.message.content ?? '';
  return { original: text, healed: text, stage: 3, confidence: 0, healing_time_ms: Math.round((performance.now() - started) * 10) / 10 };
}

/** Usage of the answer plus a re-ask, as the client is billed for both. */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a || !b) return a ?? b;
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens, totalTokens: a.totalTokens + b.totalTokens };
}

/**
 * The verdict on a completed stream's first choice, for the final `svc_metadata.healer_report`:
 * the healed text when healing would change it, confidence 0 when it stays invalid; undefined when
 * the answer was valid as sent. The streamed chunks themselves are never rewritten.
 */
export function streamReport(result: ChatResult | undefined, format: ResponseFormat, verifier: OutputVerifier): HealerReport | undefined {
  const text = result?.choices[0]?.message.content;
  if (typeof text !== 'string') return undefined;
  const started = performance.now();
  const verdict = verifier.verify(text, format, { finishReason: result!.choices[0]!.finishReason });
  if (verdict.valid && verdict.stage === 0) return undefined;
  const healing_time_ms = Math.round((performance.now() - started) * 10) / 10;
  if (!verdict.valid) return { original: text, healed: text, stage: 3, confidence: 0, healing_time_ms };
  return verdict.report ?? { original: text, healed: verdict.text, stage: verdict.stage, confidence: verdict.confidence, healing_time_ms };
}

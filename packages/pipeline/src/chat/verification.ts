import type { ModelInfo } from '@svc/catalog';
import type { ChatRequest, ChatResult, HealerReport, IntelligenceMode, OutputConfig, ResponseFormat, Usage } from '@svc/core';
import { type HealOptions, type OutputVerifier, type VerificationPlan, buildCorrectionMessages, healChatResult, planVerification } from '@svc/healing';
import type { Attempt } from '../call/attempt.js';
import { type CallSettings, callChat } from '../call/call.js';

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
  /** The re-asks made, in order (at most the organisation's `maxReasks`); the last one's answer replaced the invalid one when valid. */
  reasks: Reasked[];
  /** `svc.output_verification` was set but cannot apply (proxy mode, no JSON format). */
  notApplied: boolean;
}

/** The organisation's output config as options of the healer. */
export function healOptions(config: OutputConfig, verifier: OutputVerifier): HealOptions {
  return { verifier, healing: config.healing, minConfidence: config.minConfidence };
}

export function verificationPlan(request: ChatRequest, mode: IntelligenceMode, config: OutputConfig): VerificationPlan {
  return planVerification({
    mode,
    ...(request.svc?.outputVerification ? { setting: request.svc.outputVerification } : {}),
    ...(config.outputVerification !== 'auto' ? { orgSetting: config.outputVerification } : {}),
    ...(request.responseFormat ? { responseFormat: request.responseFormat } : {}),
    ...(request.svc?.reliabilityLevel ? { reliability: request.svc.reliabilityLevel } : {}),
    stream: request.stream,
  });
}

/**
 * Output verification and healing of a JSON answer (cache and full modes): each choice is
 * verified against `response_format`; a repairable one is healed (`healer_report` says how, with
 * an honest confidence) when the organisation accepts healed answers at that confidence; one
 * still invalid is re-asked when `output_verification` allows, up to the organisation's
 * `maxReasks` times: the same model (`native`, `schema`) or another one (`cross_model`: the
 * organisation's candidate, then the rest of the waterfall), with the original conversation, the
 * invalid answer and the problems found. A corrected answer replaces the invalid one; otherwise
 * the model's own answer is returned untouched and the report says it is still invalid (confidence 0).
 */
export async function verifyAnswer(answer: AnswerToVerify, plan: VerificationPlan, call: ReaskCall, options: VerifyOptions): Promise<Verified> {
  const { request, result, model } = answer;
  const format = request.responseFormat;
  if (!plan.verify || !format) return { result, healerReport: undefined, reasks: [], notApplied: plan.notApplied };
  const started = performance.now();
  const heal = healOptions(options.config, options.verifier);
  const healed = healChatResult(result, format, heal);
  const index = healed.invalidChoices[0];
  const rounds = plan.reask === 'none' ? 0 : options.config.maxReasks;
  if (index === undefined || rounds === 0) return { result: healed.result, healerReport: healed.healerReport ?? stillInvalid(healed, index, started), reasks: [], notApplied: false };

  const targets = reaskTargets(plan, model, call.waterfall, options.crossModel);
  const reasks: Reasked[] = [];
  let invalid = { text: result.choices[index]!.message.content ?? '', verdict: healed.verifications[index]! };
  const original = invalid.text;
  for (let round = 0; round < rounds; round++) {
    const correction: ChatRequest = { ...request, n: 1, stream: false, messages: buildCorrectionMessages({ messages: request.messages, answer: invalid.text, result: invalid.verdict, format }) };
    let second: { value: ChatResult; model: ModelInfo };
    try {
      second = await callChat(correction, targets, call.settings, call.attempts);
    } catch {
      // The last answer stands; the failed re-ask is in the attempts.
      break;
    }
    const corrected = healChatResult(second.value, format, heal);
    const valid = corrected.invalidChoices.length === 0 && corrected.result.choices.length > 0;
    reasks.push({ model: second.model, usage: second.value.usage, valid });
    if (valid) {
      const replacement = corrected.result.choices[0]!;
      const choices = healed.result.choices.map((choice) => (choice.index === index ? { ...replacement, index } : choice));
      const report: HealerReport = {
        original,
        healed: replacement.message.content ?? '',
        stage: 3,
        confidence: corrected.verifications[0]?.confidence ?? 1,
        healing_time_ms: Math.round((performance.now() - started) * 10) / 10,
      };
      return { result: { ...healed.result, choices }, healerReport: report, reasks, notApplied: false };
    }
    const verdict = corrected.verifications[0];
    if (verdict) invalid = { text: second.value.choices[0]?.message.content ?? '', verdict };
  }
  return { result: healed.result, healerReport: stillInvalid(healed, index, started), reasks, notApplied: false };
}

/** The answer to verify: what was asked, what came back, and from which model. */
export interface AnswerToVerify {
  request: ChatRequest;
  result: ChatResult;
  model: ModelInfo;
}

/** How a re-ask calls: the request's waterfall (cross-model targets), its call settings, its attempts. */
export interface ReaskCall {
  waterfall: readonly ModelInfo[];
  settings: CallSettings;
  attempts: Attempt[];
}

/** What `verifyAnswer` needs besides the call: the organisation's config, the verifier and the resolved cross-model candidate. */
export interface VerifyOptions {
  config: OutputConfig;
  verifier: OutputVerifier;
  /** The organisation's `crossModelCandidate`, when it is in the catalog. */
  crossModel?: ModelInfo | undefined;
}

/** Who is re-asked: the same model, or (cross_model) the candidate first, then the rest of the waterfall. */
function reaskTargets(plan: VerificationPlan, model: ModelInfo, waterfall: readonly ModelInfo[], candidate: ModelInfo | undefined): ModelInfo[] {
  if (plan.reask === 'same_model') return [model];
  const others = waterfall.filter((m) => m.id !== model.id && m.id !== candidate?.id);
  const first = candidate && candidate.id !== model.id ? [candidate] : [];
  const targets = [...first, ...others];
  return targets.length > 0 ? targets : [model];
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
export function streamReport(result: ChatResult | undefined, format: ResponseFormat, verifier: OutputVerifier, config: OutputConfig): HealerReport | undefined {
  const text = result?.choices[0]?.message.content;
  if (typeof text !== 'string') return undefined;
  const started = performance.now();
  const verdict = verifier.verify(text, format, { finishReason: result!.choices[0]!.finishReason });
  if (verdict.valid && verdict.stage === 0) return undefined;
  const healing_time_ms = Math.round((performance.now() - started) * 10) / 10;
  // Healing the organisation would refuse is reported as still invalid.
  const refused = !config.healing || verdict.confidence < config.minConfidence;
  if (!verdict.valid || refused) return { original: text, healed: text, stage: 3, confidence: 0, healing_time_ms };
  return verdict.report ?? { original: text, healed: verdict.text, stage: verdict.stage, confidence: verdict.confidence, healing_time_ms };
}

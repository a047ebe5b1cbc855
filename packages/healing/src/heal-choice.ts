import type { ChatChoice, ChatResult, HealerReport, ResponseFormat } from '@svc/core';
import type { VerifyResult } from './types.js';
import { type OutputVerifier, verifyJsonOutput } from './verify-json-output.js';

export interface HealOptions {
  /** The verifier (and its schema cache) to use; the process-wide one by default. */
  verifier?: OutputVerifier;
  /** Serve healed answers at all. Default true; false: an answer that needs healing counts as invalid. */
  healing?: boolean;
  /** Least confidence (0..1) of a healed answer to be served; below it the answer counts as invalid. Default 0. */
  minConfidence?: number;
}

export interface HealedChoice {
  /** The choice with its content replaced by the healed text, or the same object when nothing changed. */
  choice: ChatChoice;
  /** Undefined when there was nothing to verify: a `text` format, no text content, a refusal, tool calls or a filtered answer. */
  verification?: VerifyResult;
  /**
   * Healing would make the answer valid but the options refuse healed answers (healing off, or a
   * confidence below the minimum): the choice is left as written and counts as invalid.
   */
  refused?: boolean;
}

/**
 * Verifies and heals one non-streamed choice's text content. At stages 1-2 the content becomes the
 * healed JSON; at stage 3 it is left as the model wrote it (see `verification.issues` for a re-ask).
 * `finish_reason: length` is passed on, so a repaired answer is reported as a completed truncation.
 */
export function healChoice(choice: ChatChoice, format: ResponseFormat, options: HealOptions = {}): HealedChoice {
  const { message, finishReason } = choice;
  if (format.type === 'text' || typeof message.content !== 'string' || message.refusal !== undefined) return { choice };
  if (finishReason === 'tool_calls' || finishReason === 'content_filter') return { choice };
  const verify = options.verifier?.verify ?? verifyJsonOutput;
  const verification = verify(message.content, format, { finishReason });
  if (!verification.report) return { choice, verification };
  if (options.healing === false || verification.confidence < (options.minConfidence ?? 0)) return { choice, verification, refused: true };
  return { choice: { ...choice, message: { ...message, content: verification.text } }, verification };
}

export interface HealedResult {
  result: ChatResult;
  /** One per choice, in order (undefined where nothing was verified). */
  verifications: Array<VerifyResult | undefined>;
  /** For `svc_metadata.healer_report`: the first choice's report that healing produced, if any. */
  healerReport?: HealerReport;
  /** Indexes of choices still invalid after healing (stage 3, or healing refused), for a re-ask. */
  invalidChoices: number[];
}

/** {@link healChoice} over every choice of a provider answer. */
export function healChatResult(result: ChatResult, format: ResponseFormat, options: HealOptions = {}): HealedResult {
  const healed = result.choices.map((choice) => healChoice(choice, format, options));
  const verifications = healed.map((entry) => entry.verification);
  const healerReport = healed.find((entry) => entry.verification?.report && !entry.refused)?.verification?.report;
  const invalidChoices = healed.flatMap((entry, position) => (entry.verification?.valid === false || entry.refused ? [position] : []));
  const changed = healed.some((entry, position) => entry.choice !== result.choices[position]);
  return {
    result: changed ? { ...result, choices: healed.map((entry) => entry.choice) } : result,
    verifications,
    ...(healerReport ? { healerReport } : {}),
    invalidChoices,
  };
}

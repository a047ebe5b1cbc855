import type { IntelligenceMode, OutputVerification, ResponseFormat } from '@svc/core';
import type { VerifyResult } from './types.js';

export interface VerificationPolicyInput {
  /** The resolved intelligence mode; verification is off in `proxy` (spec §Intelligence modes). */
  mode: IntelligenceMode;
  /** `svc.output_verification`; undefined selects automatically. */
  setting?: OutputVerification;
  responseFormat?: ResponseFormat;
  stream: boolean;
  /** `svc.reliability_level`: when `setting` is unset, `high` re-asks the same model and `critical` another one. */
  reliability?: 'standard' | 'high' | 'critical';
  /**
   * The organisation's default (`/v1/output/config`), used when the request states neither a
   * setting nor a reliability level above `standard`. Not a request: never reported as not applied.
   */
  orgSetting?: OutputVerification;
}

/** Who answers again when an answer stays invalid after healing. */
export type Reask = 'none' | 'same_model' | 'other_model';

export interface VerificationPlan {
  /** Run {@link verifyJsonOutput} on the answer. */
  verify: boolean;
  /**
   * Replace the answer with the healed text. False for streams: the content has already been sent,
   * so the verdict and the healed text only go into the final `svc_metadata.healer_report`.
   */
  heal: boolean;
  /** Re-ask once (never more) when the answer is still invalid (stage 3). Never for streams. */
  reask: Reask;
  /** The caller asked for verification and none of it applies (proxy mode, or a `text` format): list `svc.output_verification` in `not_applied`. */
  notApplied: boolean;
}

const off: VerificationPlan = { verify: false, heal: false, reask: 'none', notApplied: false };

/**
 * What `svc.output_verification` does, gated by the intelligence mode (AND-gated like every
 * per-request toggle). Only JSON formats are verified: there is no contract to check free text against.
 *
 * | setting | verify + heal | re-ask when still invalid |
 * |---|---|---|
 * | `none` | no | no |
 * | (unset, auto) | when `response_format` is JSON | no (a second call is never spent unasked), except as `reliability_level` asks: `high` like `native`, `critical` like `cross_model` |
 * | `native` | yes | the same model, once |
 * | `schema` | yes | the same model, once, for `json_schema` only (`json_object` is healed, not re-asked) |
 * | `cross_model` | yes | another model (the next in the waterfall), once |
 *
 * The setting is the request's, else the one its reliability level implies, else the organisation's
 * default, else auto.
 */
export function planVerification(input: VerificationPolicyInput): VerificationPlan {
  const { mode, responseFormat, stream } = input;
  const setting = input.setting ?? strengthFor(input.reliability) ?? input.orgSetting;
  if (setting === 'none') return off;
  const requested = input.setting !== undefined;
  if (mode === 'proxy' || !responseFormat || responseFormat.type === 'text') return { ...off, notApplied: requested };
  if (stream) return { verify: true, heal: false, reask: 'none', notApplied: false };
  return { verify: true, heal: true, reask: reaskFor(setting, responseFormat), notApplied: false };
}

/** The verification a reliability level asks for when the request names none (spec §svc: it drives verification strength). */
function strengthFor(level: VerificationPolicyInput['reliability']): OutputVerification | undefined {
  if (level === 'high') return 'native';
  if (level === 'critical') return 'cross_model';
  return undefined;
}

function reaskFor(setting: OutputVerification | undefined, format: ResponseFormat): Reask {
  switch (setting) {
    case 'native':
      return 'same_model';
    case 'schema':
      return format.type === 'json_schema' && format.schema !== undefined ? 'same_model' : 'none';
    case 'cross_model':
      return 'other_model';
    default:
      return 'none';
  }
}

/** The re-ask to make for `result` under `plan`, or `none`. Valid answers (even with `meaningAtRisk`) are not re-asked: that is the caller's call. */
export function reaskNeeded(result: VerifyResult, plan: VerificationPlan): Reask {
  return plan.verify && !result.valid ? plan.reask : 'none';
}

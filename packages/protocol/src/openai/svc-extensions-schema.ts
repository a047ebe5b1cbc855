/**
 * valibot schemas of the gateway's own request extensions: `routing_hints` (soft),
 * `routing_override` (hard) and the `svc` orchestration block, with every range of spec §Limits.
 */
import type { Tier } from '@svc/core';
import * as v from 'valibot';
import { block, bool, int, nonEmptyStr, oneOf, opt, positiveNum, str } from '../shared/fields.js';

const U16_MAX = 65_535;
const U32_MAX = 4_294_967_295;
const CACHE_TTL_MAX_SECS = 86_400;

const clampUnit = (value: number) => Math.min(1, Math.max(0, value));

export const routingHintsSchema = block({
  mode: opt(oneOf(['auto', 'fast', 'balanced', 'quality', 'cost_optimized', 'free_models_only'])),
  /** Out-of-range values are clamped to 0..1, never rejected (spec §Limits). */
  preference_dial: opt(v.pipe(v.number('must be a number'), v.transform(clampUnit))),
  prefer_latency: opt(bool()),
  prefer_quality: opt(bool()),
  max_cost_per_token: opt(positiveNum()),
  max_latency_ms: opt(int(1, Number.MAX_SAFE_INTEGER)),
  max_tier: opt(oneOf([1, 2, 3])),
  required_capabilities: opt(v.array(str(), 'must be an array of strings')),
  task_complexity: opt(oneOf(['trivial', 'standard', 'complex', 'expert'])),
  chain_routing: opt(oneOf(['sticky', 'mixed'])),
  allow_free_fallback: opt(bool()),
});

const tierPattern = /^\s*t(?:ier)?[\s_-]*([123])\s*$/i;

/** `T1`, `t2`, `tier-1`, `tier1`, `Tier 3`, `tier_2` -> `T1`..`T3`; anything else -> undefined. */
export function normalizeTier(value: string): Tier | undefined {
  const match = tierPattern.exec(value);
  return match === null ? undefined : (`T${match[1]}` as Tier);
}

const tierMessage = "must be 'T1', 'T2' or 'T3' (forms like 'tier-1' are accepted)";

export const routingOverrideSchema = block({
  force_tier: opt(
    v.pipe(
      v.string(tierMessage),
      v.check((value) => normalizeTier(value) !== undefined, tierMessage),
      v.transform((value) => normalizeTier(value)!),
    ),
  ),
  force_lane: opt(oneOf(['smart', 'turbo'])),
  force_model: opt(nonEmptyStr()),
  force_provider: opt(nonEmptyStr()),
});

const voiceModeMessage = 'must be a string or a boolean';

/** `voice_mode`: a string; `true` becomes `'true'`, `false` means off (decoded as absent). */
const voiceModeSchema = v.lazy((input) =>
  typeof input === 'boolean' ? v.boolean(voiceModeMessage) : v.string(voiceModeMessage),
);

export const svcBlockSchema = block({
  workflow_type: opt(
    oneOf([
      'single_turn',
      'execution_task',
      'multi_step_conversational',
      'long_horizon_autonomous',
      'voice_simple',
      'voice_complex',
      'creative',
    ]),
  ),
  chain_id: opt(str()),
  conversation_id: opt(str()),
  planning_mode: opt(oneOf(['preact', 'planact'])),
  max_chain_steps: opt(int(1, U16_MAX)),
  chain_timeout_secs: opt(int(0, U32_MAX)),
  /** Reserved: validated, then ignored (use `routing_hints.chain_routing`). */
  chain_routing: opt(oneOf(['sticky', 'mixed'])),
  reliability_level: opt(oneOf(['standard', 'high', 'critical'])),
  enable_memory: opt(bool()),
  enable_speculation: opt(bool()),
  enable_hedging: opt(bool()),
  enable_cache: opt(bool()),
  /** Reserved: validated, then ignored. */
  cache_ttl_secs: opt(int(1, CACHE_TTL_MAX_SECS)),
  output_verification: opt(oneOf(['none', 'native', 'schema', 'cross_model'])),
  /** Reserved: validated, then ignored. */
  compress_context: opt(bool()),
  redact_pii: opt(bool()),
  voice_mode: opt(voiceModeSchema),
  /** Reserved: validated, then ignored. */
  enable_tool_reranking: opt(bool()),
  intelligence_mode: opt(oneOf(['proxy', 'cache', 'full'])),
  /** The request's own timeout in ms, capped by the server's (`SVC_REQUEST_TIMEOUT_MS`); header `x-svc-timeout-ms` wins. */
  timeout_ms: opt(int(1, U32_MAX)),
});

/** Most fallback models a request may list (`models`). */
export const MAX_FALLBACK_MODELS = 8;

/** `models`: OpenRouter's fallback list, tried in order after `model` fails (1 to 8 names). */
export const fallbackModelsSchema = v.pipe(
  v.array(nonEmptyStr(), 'must be an array of model names'),
  v.minLength(1, `must list 1 to ${MAX_FALLBACK_MODELS} models`),
  v.maxLength(MAX_FALLBACK_MODELS, `must list 1 to ${MAX_FALLBACK_MODELS} models`),
);

export type OpenAIRoutingHints = v.InferOutput<typeof routingHintsSchema>;
export type OpenAIRoutingOverride = v.InferOutput<typeof routingOverrideSchema>;
export type OpenAISvcBlock = v.InferOutput<typeof svcBlockSchema>;

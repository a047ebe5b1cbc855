import type { GuardrailCheck, Guardrails } from '@svc/core';
import { guardrailFailureModes, guardrailStages } from '@svc/core';
import * as v from 'valibot';
import { strictBody } from '../strict-body.js';

/** Most checks an organisation or a key holds: each runs on every chat request. */
export const MAX_GUARDRAILS = 20;
const MAX_TIMEOUT_MS = 30_000;

const stage = v.picklist(guardrailStages);
const timeoutMs = v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_TIMEOUT_MS, `must be at most ${MAX_TIMEOUT_MS}`)), 2_000);
const failureMode = v.picklist(guardrailFailureModes, 'must be `open` (let the text through) or `closed` (refuse)');
const httpUrl = v.pipe(
  v.string(),
  v.url('must be an absolute URL'),
  v.check((url) => /^https?:\/\//i.test(url), 'must be an http:// or https:// URL'),
  v.maxLength(2_048),
);

/** pii and secrets: `redact` replaces what they find before the call (not after: the answer is already the client's). */
const patternCheck = v.pipe(
  strictBody({ type: v.picklist(['pii', 'secrets']), stage, action: v.picklist(['refuse', 'redact', 'log']) }),
  v.check((check) => check.action !== 'redact' || check.stage === 'before_call', '`redact` applies only at stage `before_call`'),
);
const injectionCheck = strictBody({
  type: v.literal('prompt_injection'),
  stage,
  action: v.picklist(['refuse', 'log']),
  threshold: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
});
const webhookCheck = strictBody({ type: v.literal('webhook'), stage, action: v.picklist(['refuse', 'log']), url: httpUrl, timeout_ms: timeoutMs, failure_mode: failureMode });
const moderationCheck = strictBody({
  type: v.literal('moderation'),
  stage,
  action: v.picklist(['refuse', 'log']),
  model: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200))),
  timeout_ms: timeoutMs,
  failure_mode: failureMode,
});

const check = v.variant('type', [patternCheck, injectionCheck, webhookCheck, moderationCheck], 'must have a `type`: pii, secrets, prompt_injection, webhook or moderation');

/**
 * `guardrails` of an organisation or key: the checks in the order they run, or null (or `[]`)
 * for none. Strict at every level: a misspelt field is a 400 naming it, never a check that
 * silently does nothing.
 */
export const guardrailsField = v.optional(
  v.nullable(
    v.pipe(
      v.array(check, 'must be an array of checks'),
      v.maxLength(MAX_GUARDRAILS, `at most ${MAX_GUARDRAILS} checks`),
      v.description(
        'Content checks on chat requests (chat completions, responses, messages), in order: `{type, stage, action, ...}` with `type` one of `pii`, `secrets`, `prompt_injection` (`threshold` 0..1, default 0.5), `webhook` (`url`, `timeout_ms`, `failure_mode`) or `moderation` (`model`, `timeout_ms`, `failure_mode`); `stage` `before_call` or `after_answer`; `action` `refuse`, `redact` (pii and secrets before the call) or `log`. A key runs its organisation\'s checks, then its own. null or []: none.',
      ),
    ),
  ),
);

type WireCheck = v.InferOutput<typeof check>;

/** One wire check as stored. */
function toCheck(wire: WireCheck): GuardrailCheck {
  switch (wire.type) {
    case 'pii':
    case 'secrets':
      return { kind: wire.type, stage: wire.stage, action: wire.action };
    case 'prompt_injection':
      return { kind: wire.type, stage: wire.stage, action: wire.action, ...(wire.threshold !== undefined ? { threshold: wire.threshold } : {}) };
    case 'webhook':
      return { kind: wire.type, stage: wire.stage, action: wire.action, url: wire.url, timeoutMs: wire.timeout_ms, failureMode: wire.failure_mode };
    case 'moderation':
      return { kind: wire.type, stage: wire.stage, action: wire.action, timeoutMs: wire.timeout_ms, failureMode: wire.failure_mode, ...(wire.model ? { model: wire.model } : {}) };
  }
}

/** The wire value as stored: null for none (an empty list included), so "no guardrails" has one form. */
export function toGuardrails(wire: readonly WireCheck[] | null): Guardrails | null {
  return wire === null || wire.length === 0 ? null : wire.map(toCheck);
}

/** `guardrails` in wire names: [] when none is set. */
export function guardrailsToWire(checks: Guardrails | null | undefined): Record<string, unknown>[] {
  return (checks ?? []).map((stored) => {
    const { kind, timeoutMs, failureMode, ...rest } = { timeoutMs: undefined, failureMode: undefined, ...stored };
    return { type: kind, ...rest, ...(timeoutMs !== undefined ? { timeout_ms: timeoutMs, failure_mode: failureMode } : {}) };
  });
}

/**
 * Guardrails: ordered content checks an organisation or a key runs on what is sent to a provider
 * (`before_call`) and on what the provider answered (`after_answer`). Stored as the admin API
 * validated them (`organizations.guardrails`, `api_keys.guardrails`), loaded with the caller.
 */
export const guardrailKinds = ['pii', 'secrets', 'prompt_injection', 'webhook', 'moderation'] as const;
export type GuardrailKind = (typeof guardrailKinds)[number];

export const guardrailStages = ['before_call', 'after_answer'] as const;
export type GuardrailStage = (typeof guardrailStages)[number];

/** `refuse`: the request fails naming the check; `redact`: matches are replaced before the call (pii, secrets); `log`: only recorded. */
export const guardrailActions = ['refuse', 'redact', 'log'] as const;
export type GuardrailAction = (typeof guardrailActions)[number];

/** What a remote check (webhook, moderation) does when it fails or times out: `open` lets the text through, `closed` refuses. */
export const guardrailFailureModes = ['open', 'closed'] as const;
export type GuardrailFailureMode = (typeof guardrailFailureModes)[number];

interface CheckBase {
  stage: GuardrailStage;
  action: GuardrailAction;
}

/** A check run in the gateway's process. */
export interface LocalGuardrail extends CheckBase {
  kind: 'pii' | 'secrets' | 'prompt_injection';
  /** prompt_injection: the score (0..1) from which text is flagged; default 0.5. */
  threshold?: number;
}

/** A check that asks another service: bounded by `timeoutMs`, `failureMode` decides when it cannot answer. */
export interface RemoteGuardrail extends CheckBase {
  kind: 'webhook' | 'moderation';
  timeoutMs: number;
  failureMode: GuardrailFailureMode;
  /** webhook: where the gateway POSTs `{stage, texts, org_id, key_id, request_id}`. */
  url?: string;
  /** moderation: the moderation model (default: the catalog's default moderation model). */
  model?: string;
}

export type GuardrailCheck = LocalGuardrail | RemoteGuardrail;

/** An organisation's or key's checks, in the order they run. */
export type Guardrails = readonly GuardrailCheck[];

export function isRemoteGuardrail(check: GuardrailCheck): check is RemoteGuardrail {
  return check.kind === 'webhook' || check.kind === 'moderation';
}

/**
 * What one check decided (`svc_metadata.guardrails`, the decision log's `details.guardrails`): `pass`, `flagged` (logged only), `redacted`, `refused`, or
 * `unavailable` (a remote check failed or timed out and its failure mode let the text through).
 */
export interface GuardrailDecision {
  check: GuardrailKind;
  stage: GuardrailStage;
  action: GuardrailAction;
  outcome: 'pass' | 'flagged' | 'redacted' | 'refused' | 'unavailable';
  /** Why: the kinds found (`EMAIL:2`), the rules matched, the webhook's reason, the error. */
  detail?: string;
}

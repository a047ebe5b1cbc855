export type { GuardrailContext, GuardrailDecision, GuardrailText, RemoteCheckers, RemoteVerdict, WebhookBody } from './guardrail-types.js';
export { type LocalFinding, runLocalCheck } from './local-checks.js';
export { DEFAULT_INJECTION_THRESHOLD, type InjectionScore, scorePromptInjection } from './prompt-injection.js';
export { decisionsHeader, type GuardrailStageResult, type GuardrailStageSettings, runGuardrailStage } from './run-guardrails.js';
export { findSecrets, redactSecrets, type SecretKind } from './secrets.js';
export { askWebhook, type GuardrailFetch } from './webhook-check.js';
export { guardrailRefused } from './guardrail-error.js';
export { INJECTION_BUCKETS, type InjectionModel, injectionFeatures, injectionProbability } from './injection-features.js';
export { learnedInjectionProbability, shippedInjectionModel } from './injection-model.js';

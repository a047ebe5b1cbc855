import { GatewayError } from '@svc/core';
import type { GuardrailDecision } from './guardrail-types.js';

/**
 * 422 `governance_error` with code `guardrail_<check>` (`guardrail_pii`, `guardrail_prompt_injection`,
 * `guardrail_webhook`...): the check that refused, at which stage, and why. `param` is `messages`
 * before the call (what the caller sent) and null after the answer (what the model wrote).
 */
export function guardrailRefused(decision: GuardrailDecision, header: string, conversationParam = 'messages'): GatewayError {
  const where = decision.stage === 'before_call' ? 'the request' : 'the answer';
  const why = decision.detail ? ` (${decision.detail})` : '';
  return new GatewayError({
    status: 422,
    type: 'governance_error',
    code: `guardrail_${decision.check}`,
    message: `The ${decision.check} guardrail refused ${where}${why}.`,
    param: decision.stage === 'before_call' ? conversationParam : null,
    headers: { 'x-svc-guardrails': header },
  });
}

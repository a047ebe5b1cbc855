import type { GuardrailStage, RemoteGuardrail } from '@svc/core';

export type { GuardrailDecision } from '@svc/core';

/** One text a stage checks, with who wrote it (`answer` for the provider's answer). */
export interface GuardrailText {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool' | 'answer';
  text: string;
}

/** What a remote check answered: flagged or not, and why (shown in the decision). */
export interface RemoteVerdict {
  flagged: boolean;
  detail?: string;
}

/** Who asks, sent to the operator's webhook and to nothing else. */
export interface GuardrailContext {
  orgId: string;
  keyId: string;
  requestId: string;
}

/** The remote checks, supplied by the app: the webhook's fetch and the gateway's moderation adapter. */
export interface RemoteCheckers {
  webhook(check: RemoteGuardrail, body: WebhookBody, signal: AbortSignal): Promise<RemoteVerdict>;
  moderate(check: RemoteGuardrail, texts: readonly string[], signal: AbortSignal): Promise<RemoteVerdict>;
}

/** What the gateway POSTs to an operator's webhook. */
export interface WebhookBody {
  stage: GuardrailStage;
  texts: GuardrailText[];
  org_id: string;
  key_id: string;
  request_id: string;
}

import type { RemoteGuardrail } from '@svc/core';
import * as v from 'valibot';
import type { RemoteVerdict, WebhookBody } from './guardrail-types.js';

/** What the operator's service answers: `{action: "allow" | "refuse", reason?}`. */
const webhookAnswer = v.object({ action: v.picklist(['allow', 'refuse']), reason: v.optional(v.pipe(v.string(), v.maxLength(500))) });

export type GuardrailFetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * POSTs the stage's texts to `check.url` as JSON and reads its verdict. A status other than 2xx,
 * a body that is not the verdict, or the signal firing (the check's timeout) rejects: the runner
 * applies the check's failure mode.
 */
export async function askWebhook(fetch: GuardrailFetch, check: RemoteGuardrail, body: WebhookBody, signal: AbortSignal): Promise<RemoteVerdict> {
  const response = await fetch(check.url ?? '', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`the webhook answered ${response.status}`);
  }
  const parsed = v.safeParse(webhookAnswer, await response.json());
  if (!parsed.success) throw new Error('the webhook answered something other than {action: "allow" | "refuse"}');
  return { flagged: parsed.output.action === 'refuse', ...(parsed.output.reason ? { detail: parsed.output.reason } : {}) };
}

import { type GuardrailCheck, type GuardrailStage, type Guardrails, type RemoteGuardrail, isRemoteGuardrail } from '@svc/core';
import type { GuardrailContext, GuardrailDecision, GuardrailText, RemoteCheckers, RemoteVerdict } from './guardrail-types.js';
import { runLocalCheck } from './local-checks.js';

export interface GuardrailStageSettings {
  /** The caller's checks (its organisation's, then its key's); only those of `stage` run. */
  checks: Guardrails;
  stage: GuardrailStage;
  texts: readonly GuardrailText[];
  remote: RemoteCheckers;
  context: GuardrailContext;
}

export interface GuardrailStageResult {
  /** One per check of the stage that ran, in order (a refusal is the last). */
  decisions: GuardrailDecision[];
  /** The decision that refused, if one did: the request ends with its error. */
  refused: GuardrailDecision | undefined;
  /** The redactions of `redact` checks that found something, in order; undefined when none. */
  redact: ((text: string) => string) | undefined;
}

/**
 * Runs the stage's checks in order over its texts. A `redact` check's replacement applies before
 * the next check runs (a webhook after a pii redaction sees placeholders); the first refusal stops
 * the stage. A remote check that fails or outlives its timeout is `refused` when its failure mode
 * is `closed` and its action `refuse`, else `unavailable` and the stage goes on.
 */
export async function runGuardrailStage(settings: GuardrailStageSettings): Promise<GuardrailStageResult> {
  const decisions: GuardrailDecision[] = [];
  const redactions: ((text: string) => string)[] = [];
  let texts = settings.texts;
  for (const check of settings.checks) {
    if (check.stage !== settings.stage) continue;
    const decision = isRemoteGuardrail(check) ? await remoteDecision(check, texts, settings) : localDecision(check, texts, redactions);
    decisions.push(decision);
    if (decision.outcome === 'refused') return { decisions, refused: decision, redact: composed(redactions) };
    if (decision.outcome === 'redacted') {
      const redact = redactions[redactions.length - 1]!;
      texts = texts.map((entry) => ({ role: entry.role, text: redact(entry.text) }));
    }
  }
  return { decisions, refused: undefined, redact: composed(redactions) };
}

function composed(redactions: readonly ((text: string) => string)[]): ((text: string) => string) | undefined {
  if (redactions.length === 0) return undefined;
  return (text) => redactions.reduce((redacted, redact) => redact(redacted), text);
}

function localDecision(check: Exclude<GuardrailCheck, RemoteGuardrail>, texts: readonly GuardrailText[], redactions: ((text: string) => string)[]): GuardrailDecision {
  const base = { check: check.kind, stage: check.stage, action: check.action };
  const found = runLocalCheck(check, texts);
  if (!found.flagged) return { ...base, outcome: 'pass' };
  const detail = found.detail ? { detail: found.detail } : {};
  if (check.action === 'redact' && found.redact) {
    redactions.push(found.redact);
    return { ...base, outcome: 'redacted', ...detail };
  }
  return { ...base, outcome: check.action === 'refuse' ? 'refused' : 'flagged', ...detail };
}

async function remoteDecision(check: RemoteGuardrail, texts: readonly GuardrailText[], settings: GuardrailStageSettings): Promise<GuardrailDecision> {
  const base = { check: check.kind, stage: check.stage, action: check.action };
  let verdict: RemoteVerdict;
  try {
    verdict = await askRemote(check, texts, settings);
  } catch (error) {
    const detail = `${check.kind} failed: ${error instanceof Error ? error.message : String(error)}`;
    const closed = check.failureMode === 'closed' && check.action === 'refuse';
    return { ...base, outcome: closed ? 'refused' : 'unavailable', detail };
  }
  if (!verdict.flagged) return { ...base, outcome: 'pass' };
  return { ...base, outcome: check.action === 'refuse' ? 'refused' : 'flagged', ...(verdict.detail ? { detail: verdict.detail } : {}) };
}

function askRemote(check: RemoteGuardrail, texts: readonly GuardrailText[], settings: GuardrailStageSettings): Promise<RemoteVerdict> {
  const signal = AbortSignal.timeout(check.timeoutMs);
  if (check.kind === 'moderation') return settings.remote.moderate(check, texts.map((entry) => entry.text), signal);
  const { orgId, keyId, requestId } = settings.context;
  return settings.remote.webhook(check, { stage: settings.stage, texts: [...texts], org_id: orgId, key_id: keyId, request_id: requestId }, signal);
}

/** The decisions as one header value: `pii=redacted;prompt_injection=pass` (a check that ran twice appears twice). */
export function decisionsHeader(decisions: readonly GuardrailDecision[]): string {
  return decisions.map((decision) => `${decision.check}=${decision.outcome}`).join(';');
}

import { type Caller, type ChatMessage, type ChatRequest, type ChatResult, type Guardrails, type RemoteGuardrail, eitherSignal, isGatewayError } from '@svc/core';
import { type GuardrailDecision, type GuardrailText, type RemoteCheckers, type RemoteVerdict, askWebhook, decisionsHeader, guardrailRefused, runGuardrailStage } from '@svc/guardrails';
import type { Exchange } from '../exchange.js';
import type { GatewayDeps } from '../gateway-types.js';
import type { UsageEvent } from '../learn/learn-queue.js';
import { uncalledUsage } from '../learn/part-usage.js';
import { moderate } from '../units/moderate.js';
import { redactMessage } from './memory-stage.js';

/**
 * The caller's guardrails: its organisation's checks, then its key's. Undefined when it has none,
 * which costs two property reads and nothing else (the light path: no await, no store read, no
 * allocation); a list is built only when both hold checks.
 */
export function guardrailsOf(caller: Caller): Guardrails | undefined {
  const org = caller.org.guardrails;
  const key = caller.guardrails;
  if (!org || org.length === 0) return key;
  return key ? [...org, ...key] : org;
}

/** The header, ledger tag and span attribute that carry a request's guardrail decisions. */
export const GUARDRAILS_HEADER = 'x-svc-guardrails';
const GUARDRAILS_TAG = 'svc.guardrails';

/**
 * One request's guardrails: the before-call stage (refuse, or redact the request), then the
 * after-answer stage over the answer (JSON before it is finished, a stream before its last event).
 * Every decision is noted at once on the exchange's ledger tags and trace, and kept for the header
 * and the decision log.
 */
export class TurnGuardrails {
  readonly decisions: GuardrailDecision[] = [];
  /** Some check runs after the answer: answers are not served from the cache (a cached answer was never checked for this caller). */
  readonly checksAnswer: boolean;
  private readonly remote: RemoteCheckers;

  constructor(
    private readonly checks: Guardrails,
    private readonly deps: GatewayDeps,
    private readonly exchange: Exchange,
  ) {
    this.checksAnswer = checks.some((check) => check.stage === 'after_answer');
    this.remote = remoteCheckers(deps, exchange);
  }

  header(): string {
    return decisionsHeader(this.decisions);
  }

  /**
   * Runs the before-call checks: throws the refusal (after its ledger row: nothing called, nothing
   * spent, status 422, the decisions in its tags), or returns the request (redacted when a check redacted).
   */
  async beforeCall(request: ChatRequest): Promise<ChatRequest> {
    let result: Awaited<ReturnType<TurnGuardrails['run']>>;
    try {
      result = await this.run('before_call', requestTexts(request.messages));
    } catch (error) {
      if (isGatewayError(error) && error.code.startsWith('guardrail_')) this.deps.learn.recordUsage(refusedRow(this.exchange, request, error.status));
      throw error;
    }
    if (!result.redact) return request;
    const redact = result.redact;
    return { ...request, messages: request.messages.map((message) => redactMessage(message, redact)) };
  }

  /** Runs the after-answer checks over the answer's texts; throws the refusal. */
  async checkAnswer(texts: readonly string[]): Promise<void> {
    await this.run(
      'after_answer',
      texts.map((text) => ({ role: 'answer', text })),
    );
  }

  private async run(stage: 'before_call' | 'after_answer', texts: GuardrailText[]) {
    const { caller, requestId } = this.exchange;
    const result = await runGuardrailStage({ checks: this.checks, stage, texts, remote: this.remote, context: { orgId: caller.org.id, keyId: caller.keyId, requestId } });
    if (result.decisions.length === 0) return result;
    this.decisions.push(...result.decisions);
    const header = this.header();
    this.exchange.tags = { ...this.exchange.tags, [GUARDRAILS_TAG]: header };
    this.exchange.trace?.set({ [GUARDRAILS_TAG]: header });
    if (result.refused) throw guardrailRefused(result.refused, header, this.exchange.conversationParam);
    return result;
  }
}

/** The ledger row of a request the before-call guardrails refused: the model asked for, provider `svc` (none was called). */
function refusedRow(exchange: Exchange, request: ChatRequest, status: number): UsageEvent {
  return uncalledUsage({
    requestId: exchange.requestId,
    orgId: exchange.caller.org.id,
    keyId: exchange.caller.keyId,
    model: request.model,
    provider: 'svc',
    latencyMs: Math.round(performance.now() - exchange.startedAt),
    status,
    stream: request.stream,
    endUser: exchange.endUser ?? null,
    tags: exchange.tags ?? null,
  });
}

/** The texts of the request's messages, with their roles (the injection check skips the operator's system prompt). */
function requestTexts(messages: readonly ChatMessage[]): GuardrailText[] {
  const texts: GuardrailText[] = [];
  for (const { role, content } of messages) {
    if (typeof content === 'string') texts.push({ role, text: content });
    else if (content) for (const part of content) if (part.type === 'text') texts.push({ role, text: part.text });
  }
  return texts;
}

/** The texts of an answer: each choice's content and refusal. */
export function answerTexts(result: ChatResult): string[] {
  const texts: string[] = [];
  for (const { message } of result.choices) {
    if (message.content) texts.push(message.content);
    if (message.refusal) texts.push(message.refusal);
  }
  return texts;
}

/**
 * The webhook through the app's fetch; moderation through the gateway's own moderation stage
 * (admitted and ledgered as a moderation request). Each stops at its check's timeout or when the
 * client leaves, whichever comes first, and stops following the request once it ends.
 */
function remoteCheckers(deps: GatewayDeps, exchange: Exchange): RemoteCheckers {
  return {
    webhook: (check, body, timeout) => {
      const fetch = deps.guardrailFetch;
      if (!fetch) return Promise.reject(new Error('no webhook client is configured'));
      return untilGone(timeout, exchange, (signal) => askWebhook(fetch, check, body, signal));
    },
    moderate: (check, texts, timeout) => untilGone(timeout, exchange, (signal) => moderateTexts(deps, exchange, check, texts, signal)),
  };
}

/** Runs `call` with a signal that aborts at the check's timeout or when the client leaves. */
async function untilGone<T>(timeout: AbortSignal, exchange: Exchange, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const either = eitherSignal(timeout, exchange.signal);
  try {
    return await call(either.signal);
  } finally {
    either.release();
  }
}

async function moderateTexts(deps: GatewayDeps, exchange: Exchange, check: RemoteGuardrail, texts: readonly string[], signal: AbortSignal): Promise<RemoteVerdict> {
  if (texts.length === 0) return { flagged: false };
  const { moderation } = await moderate(deps, { ...(check.model ? { model: check.model } : {}), input: [...texts] }, { ...exchange, signal });
  const flagged = moderation.results.filter((result) => result.flagged);
  if (flagged.length === 0) return { flagged: false };
  const categories = new Set(flagged.flatMap((result) => Object.keys(result.categories).filter((name) => result.categories[name])));
  return { flagged: true, detail: [...categories].join(',') };
}

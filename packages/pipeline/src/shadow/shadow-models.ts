import { type Reservation, computeCost, monthLimits, tokenCostUsd, unlimitedReservation } from '@svc/billing';
import { withOwnKeys } from '@svc/byok';
import type { ModelInfo } from '@svc/catalog';
import type { Caller, ChatResult } from '@svc/core';
import type { ShadowAnswer, ShadowCall, ShadowModels } from '@svc/judging';
import { callChat } from '../call/call.js';
import { noSavingsUsage } from '../learn/part-usage.js';
import { estimatePromptTokens } from '../estimate-usage.js';
import { defaultTimeouts } from '../call/deadline.js';
import { CallerModelAccess } from '../chat/model-access.js';
import type { GatewayDeps } from '../gateway-types.js';

export type ShadowModelDeps = Pick<GatewayDeps, 'catalog' | 'providers' | 'byok' | 'learn' | 'metrics' | 'timeouts' | 'limiter'>;

function price(model: ModelInfo): number {
  return model.inputPricePerMTok + model.outputPricePerMTok;
}

function permits(caller: Caller, model: ModelInfo): boolean {
  return CallerModelAccess.of(caller)?.permits(model) ?? true;
}

/** The chat models other than `served` the caller may use whose price passes `within`. */
function others(deps: ShadowModelDeps, caller: Caller, served: ModelInfo, within: (model: ModelInfo) => boolean): ModelInfo[] {
  return deps.catalog.list({ kind: 'chat' }).filter((model) => within(model) && model.id !== served.id && permits(caller, model));
}

/** The first choice's text; empty when it has none. */
function answerText(result: ChatResult): string {
  const content = result.choices[0]?.message.content;
  return typeof content === 'string' ? content : '';
}

/**
 * Shadow judging's calls through the gateway's providers: a model only when the caller may use it
 * (model access of its organisation and key), the organisation's own keys before the platform's,
 * one attempt (no fallback, no retry, no hedge), and each call's own ledger row
 * `<request id>:<part>` (the ledger's category of the call: `shadow`, `judge:1`, `judge:2`).
 * Calls go around the request pipeline: they write no decision, teach the router nothing and
 * never touch the cache or memory.
 */
export function createShadowModels(deps: ShadowModelDeps): ShadowModels {
  return {
    permitted(caller, slug) {
      const model = deps.catalog.resolve(slug);
      return model?.kind === 'chat' && permits(caller, model) ? model : undefined;
    },
    cheaperThan(caller, served) {
      const ceiling = price(served);
      return others(deps, caller, served, (model) => price(model) < ceiling).sort((a, b) => price(b) - price(a));
    },
    pricierThan(caller, served) {
      const floor = price(served);
      return others(deps, caller, served, (model) => price(model) > floor).sort((a, b) => price(a) - price(b));
    },
    call: (call) => shadowCall(deps, call),
  };
}

/**
 * Admits a shadow or judge call against the organisation's month (its budgets and token quota,
 * never its per-minute limits: background work must not take its live traffic's rate), with the
 * prompt and `max_tokens` at the model's prices as the estimate. Throws 402 when the month is spent.
 */
async function admitMonth(deps: ShadowModelDeps, call: ShadowCall): Promise<Reservation> {
  if (!deps.limiter) return unlimitedReservation;
  const promptTokens = estimatePromptTokens(call.request.messages);
  const completionTokens = call.request.maxTokens ?? 0;
  return deps.limiter.admit({
    orgId: call.caller.org.id,
    keyId: call.caller.keyId,
    limits: monthLimits(call.caller),
    estimatedTokens: promptTokens + completionTokens,
    estimatedCostUsd: tokenCostUsd(call.model, { promptTokens, completionTokens }),
  });
}

async function shadowCall(deps: ShadowModelDeps, call: ShadowCall): Promise<ShadowAnswer> {
  const reservation = await admitMonth(deps, call);
  const started = performance.now();
  let result: ChatResult;
  try {
    result = await callOnce(deps, call);
  } catch (error) {
    await reservation.release();
    throw error;
  }
  const usage = result.usage ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  const cost = computeCost(call.model, usage);
  await reservation.settle({ actualTokens: usage.promptTokens + usage.completionTokens, actualCostUsd: cost.costUsd });
  deps.metrics.model(call.model.provider, call.model.id).costUsd.inc(cost.costUsd);
  deps.learn.recordUsage(
    noSavingsUsage({
      requestId: `${call.requestId}:${call.part}`,
      caller: call.caller,
      model: call.model.id,
      provider: call.model.provider,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      cachedTokens: usage.cachedPromptTokens ?? 0,
      costUsd: cost.costUsd,
      unpriced: cost.unpriced,
      latencyMs: Math.round(performance.now() - started),
    }),
  );
  return { text: answerText(result), costUsd: cost.costUsd };
}

/** The call itself: the organisation's own keys first, one attempt, the request's timeout. */
async function callOnce(deps: ShadowModelDeps, call: ShadowCall): Promise<ChatResult> {
  const found = deps.byok?.forOrg(call.caller.org.id);
  const own = found instanceof Promise ? await found : found;
  const { providers, ownKey } = withOwnKeys(own, deps.providers);
  const options = { providers, ownKey, observer: { attempt: () => {} }, maxAttempts: 1, signal: AbortSignal.timeout((deps.timeouts ?? defaultTimeouts).requestMs) };
  return (await callChat(call.request, [call.model], options, [])).value;
}

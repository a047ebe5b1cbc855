import { computeCost } from '@svc/billing';
import { withOwnKeys } from '@svc/byok';
import type { ModelInfo } from '@svc/catalog';
import type { Caller, ChatResult } from '@svc/core';
import type { ShadowAnswer, ShadowCall, ShadowModels } from '@svc/judging';
import { callChat } from '../call/call.js';
import { noSavingsUsage } from '../learn/part-usage.js';
import { defaultTimeouts } from '../call/deadline.js';
import { CallerModelAccess } from '../chat/model-access.js';
import type { GatewayDeps } from '../gateway-types.js';

export type ShadowModelDeps = Pick<GatewayDeps, 'catalog' | 'providers' | 'byok' | 'learn' | 'metrics' | 'timeouts'>;

function price(model: ModelInfo): number {
  return model.inputPricePerMTok + model.outputPricePerMTok;
}

function permits(caller: Caller, model: ModelInfo): boolean {
  return CallerModelAccess.of(caller)?.permits(model) ?? true;
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
      return deps.catalog
        .list({ kind: 'chat' })
        .filter((model) => price(model) < ceiling && model.id !== served.id && permits(caller, model))
        .sort((a, b) => price(b) - price(a));
    },
    call: (call) => shadowCall(deps, call),
  };
}

async function shadowCall(deps: ShadowModelDeps, call: ShadowCall): Promise<ShadowAnswer> {
  const { caller, model } = call;
  const found = deps.byok?.forOrg(caller.org.id);
  const own = found instanceof Promise ? await found : found;
  const { providers, ownKey } = withOwnKeys(own, deps.providers);
  const started = performance.now();
  const called = await callChat(
    call.request,
    [model],
    {
      providers,
      ownKey,
      observer: { attempt: () => {} },
      maxAttempts: 1,
      signal: AbortSignal.timeout((deps.timeouts ?? defaultTimeouts).requestMs),
    },
    [],
  );
  const usage = called.value.usage ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  const cost = computeCost(model, usage);
  deps.metrics.model(model.provider, model.id).costUsd.inc(cost.costUsd);
  deps.learn.recordUsage(
    noSavingsUsage({
      requestId: `${call.requestId}:${call.part}`,
      caller,
      model: model.id,
      provider: model.provider,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      cachedTokens: usage.cachedPromptTokens ?? 0,
      costUsd: cost.costUsd,
      unpriced: cost.unpriced,
      latencyMs: Math.round(performance.now() - started),
    }),
  );
  return { text: answerText(called.value), costUsd: cost.costUsd };
}

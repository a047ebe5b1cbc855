import type { ChatRequest } from '@svc/core';
import type { ChatJsonResponse, GatewayDeps } from '../gateway-types.js';
import type { Exchange } from '../exchange.js';

/** A delivered answer as shadow judging reads it. */
export interface DeliveredAnswer {
  /** The model that answered (`svc_metadata.model`). */
  model: string;
  /** The answer's text (read only when it is offered): undefined when it is not plain text (tool calls, reasoning, refusal). */
  text(): string | undefined;
  completionTokens: number;
  taskKind: string | null;
}

/**
 * Offers a delivered answer to shadow judging (no I/O, no wait: the judging happens in later
 * macrotasks). Proxy mode and organisations whose cached settings say off return at once, before
 * the answer's text is read. Not offered: an answer that is not plain text, or whose model the
 * catalog does not know.
 */
export function offerAnswerForShadow(deps: Pick<GatewayDeps, 'shadow' | 'catalog'>, request: ChatRequest, exchange: Exchange, answer: DeliveredAnswer): void {
  const { shadow } = deps;
  if (shadow?.accepts(exchange.caller.org.id, exchange.mode)) offerAccepted({ shadow, catalog: deps.catalog }, request, exchange, answer);
}

/** Offers an answered JSON request to shadow judging. A cache hit is not offered (no model answered it now). */
export function offerForShadow(deps: Pick<GatewayDeps, 'shadow' | 'catalog'>, request: ChatRequest, exchange: Exchange, response: ChatJsonResponse): void {
  const { shadow } = deps;
  if (!shadow?.accepts(exchange.caller.org.id, exchange.mode) || response.metadata.decision_source === 'CacheHit') return;
  const content = response.result.choices[0]?.message.content;
  offerAccepted({ shadow, catalog: deps.catalog }, request, exchange, {
    model: response.metadata.model ?? response.result.model,
    text: () => (typeof content === 'string' ? content : undefined),
    completionTokens: response.result.usage?.completionTokens ?? 0,
    taskKind: response.metadata.task_family,
  });
}

/** The offer of an answer judging accepts (`ShadowJudging.accepts` asked once, by the callers above). */
function offerAccepted(deps: { shadow: NonNullable<GatewayDeps['shadow']>; catalog: GatewayDeps['catalog'] }, request: ChatRequest, exchange: Exchange, answer: DeliveredAnswer): void {
  const served = deps.catalog.resolve(answer.model);
  const text = served ? answer.text() : undefined;
  if (!served || text === undefined) return;
  deps.shadow.offer({
    caller: exchange.caller,
    requestId: exchange.requestId,
    mode: exchange.mode,
    cacheDirective: exchange.cacheDirective,
    request,
    served,
    answer: text,
    completionTokens: answer.completionTokens,
    taskKind: answer.taskKind,
  });
}

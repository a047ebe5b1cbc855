import type { ChatRequest } from '@svc/core';
import type { ChatJsonResponse, GatewayDeps } from '../gateway-types.js';
import type { Exchange } from '../exchange.js';

/**
 * Offers an answered JSON request to shadow judging (no I/O, no wait: the judging happens in
 * later macrotasks). Proxy mode and organisations whose cached settings say off return at once,
 * before anything is built. A cache hit is not offered (no model answered it now), nor an answer whose
 * served model the catalog does not know.
 */
export function offerForShadow(deps: Pick<GatewayDeps, 'shadow' | 'catalog'>, request: ChatRequest, exchange: Exchange, response: ChatJsonResponse): void {
  const { shadow } = deps;
  if (!shadow?.accepts(exchange.caller.org.id, exchange.mode) || response.metadata.decision_source === 'CacheHit') return;
  const served = deps.catalog.resolve(response.metadata.model ?? response.result.model);
  const content = response.result.choices[0]?.message.content;
  if (!served || typeof content !== 'string') return;
  shadow.offer({
    caller: exchange.caller,
    requestId: exchange.requestId,
    mode: exchange.mode,
    cacheDirective: exchange.cacheDirective,
    request,
    served,
    answer: content,
    completionTokens: response.result.usage?.completionTokens ?? 0,
    taskKind: response.metadata.task_family,
  });
}

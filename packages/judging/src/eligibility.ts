import type { ChatRequest, IntelligenceMode } from '@svc/core';

/** Why a request is never shadowed. */
export type ShadowSkip = 'store_false' | 'no_store' | 'proxy_mode' | 'shadow_request' | 'not_text' | 'memory_off';

/** What the edge decided about the request that matters to shadow judging. */
export interface ShadowRequestFacts {
  request: ChatRequest;
  requestId: string;
  mode: IntelligenceMode;
  cacheDirective?: 'no-cache' | 'no-store' | undefined;
}

/**
 * The rule (docs/routing.md, "Shadow judging"): a request is re-sent to a candidate and a judge
 * only when the caller allowed it to be kept. Skipped: `store: false` (zero data retention, as
 * OpenAI names it), `Cache-Control: no-store`, the memory-free modes (proxy mode, which never
 * reads or keeps the text, and `svc.enable_memory: false`), a part of another request (`<id>:<part>`, e.g. a shadow call itself), and answers a judge cannot
 * compare as text (tools, several choices, audio/image output). A stream is offered once it was
 * delivered whole, with its text; the candidate is asked without streaming.
 */
export function shadowSkipReason(facts: ShadowRequestFacts): ShadowSkip | undefined {
  const { request } = facts;
  if (request.store === false) return 'store_false';
  if (facts.cacheDirective === 'no-store') return 'no_store';
  if (facts.mode === 'proxy') return 'proxy_mode';
  if (request.svc?.enableMemory === false) return 'memory_off';
  if (facts.requestId.includes(':')) return 'shadow_request';
  if (request.n > 1 || (request.tools?.length ?? 0) > 0) return 'not_text';
  return undefined;
}

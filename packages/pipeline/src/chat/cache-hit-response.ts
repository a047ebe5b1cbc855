import type { Cost } from '@svc/billing';
import type { ChatRequest, ChatResult, StreamEvent, SvcMetadata, Usage } from '@svc/core';
import type { ChatResponse, Exchange } from '../gateway-types.js';
import { replayStream } from '../stream/stream-replay.js';
import type { CacheHit } from './cache-stage.js';

/** What a cache hit's metadata is made of. */
export interface HitFacts {
  request: ChatRequest;
  exchange: Exchange;
  hit: CacheHit;
  cost: Cost | undefined;
  latencyMs: number;
}

/**
 * A hit's `svc_metadata`: free (cost 0, the baseline saved in full), lane `turbo`,
 * `decision_source: CacheHit`, the layer that answered and, for a semantic hit, the similarity
 * and the request whose answer it was.
 */
export function hitMetadata({ request, exchange, hit, cost, latencyMs }: HitFacts): SvcMetadata {
  const { answer } = hit;
  return {
    request_id: exchange.requestId,
    routing_decision: `turbo lane via CacheHit (${hit.layer === 'semantic' ? 'semantic' : `exact ${hit.layer}`}): ${answer.model}`,
    provider: answer.provider,
    tier: answer.tier,
    provider_tier: null,
    latency_ms: latencyMs,
    requested_model: request.model,
    decision_source: 'CacheHit',
    task_family: null,
    cost_usd: cost ? 0 : null,
    baseline_cost_usd: cost?.baselineCostUsd ?? null,
    savings_usd: cost?.savingsUsd ?? null,
    savings_pct: cost?.savingsPct ?? null,
    cost_attribution: 'svc',
    estimated_cost_usd: cost ? 0 : null,
    intelligence_mode: exchange.mode,
    lane: 'turbo',
    model: answer.model,
    cache_hit: true,
    cache_type: hit.layer === 'semantic' ? 'semantic' : 'exact',
    ...(hit.similarity === undefined ? {} : { semantic_similarity: hit.similarity }),
    ...(hit.layer === 'semantic' && answer.requestId !== undefined ? { cached_request_id: answer.requestId } : {}),
  };
}

function hitHeaders(exchange: Exchange, hit: CacheHit, usage: Usage | undefined, latencyMs: number): Record<string, string> {
  const { answer } = hit;
  const headers: Record<string, string> = {
    'x-request-id': exchange.requestId,
    'x-svc-request-id': exchange.requestId,
    'x-svc-org-id': exchange.caller.org.id,
    'x-svc-model': answer.model,
    'x-svc-provider': answer.provider,
    'x-svc-tier-used': answer.tier,
    'x-svc-lane-used': 'turbo',
    'x-svc-intelligence-mode': exchange.mode,
    'x-svc-cache-hit': 'true',
    'x-svc-cache-type': hit.layer === 'semantic' ? 'semantic' : 'exact',
    'x-svc-latency-ms': String(latencyMs),
  };
  if (hit.similarity !== undefined) headers['x-svc-semantic-similarity'] = hit.similarity.toFixed(4);
  if (usage) {
    headers['x-svc-input-tokens'] = String(usage.promptTokens);
    headers['x-svc-output-tokens'] = String(usage.completionTokens);
    headers['x-svc-cost-usd'] = '0';
  }
  return headers;
}

/**
 * A cache hit as the client receives it: the stored answer with its usage, and the hit's headers;
 * replayed token by token when the request streams. Its ending (metadata, ledger, decision, spend)
 * was written by `finish`.
 */
export function cacheHitResponse(facts: HitFacts & { usage: Usage | undefined; metadata: SvcMetadata }): ChatResponse {
  const { request, exchange, hit, usage, metadata } = facts;
  const headers = hitHeaders(exchange, hit, usage, facts.latencyMs);
  const result: ChatResult = { ...hit.answer.result, ...(usage ? { usage } : {}) };
  if (!request.stream) return { kind: 'json', result, metadata, headers };
  async function* events(): AsyncGenerator<StreamEvent> {
    yield* replayStream(result, usage);
  }
  return { kind: 'stream', events: events(), headers, model: hit.answer.model, metadata: () => metadata };
}

import type { Catalog } from '@svc/catalog';
import type { ChatRequest, ChatResult, StreamEvent, SvcMetadata } from '@svc/core';
import { type CacheHit, hitCost, hitUsage } from './cache-stage.js';
import type { ChatResponse, Exchange } from '../gateway-types.js';
import type { LearnRecorder } from '../learn/learn-records.js';
import { replayStream } from '../stream/stream-replay.js';

/**
 * A cache hit: the stored answer, free (cost 0, the baseline saved in full), lane `turbo`,
 * `decision_source: CacheHit`; replayed token by token when the request streams. Logged in the
 * ledger (cache_hit) and the decision log; the router learns nothing from it.
 */
export function cacheHitResponse(owner: { catalog: Pick<Catalog, 'get'>; recorder: LearnRecorder }, request: ChatRequest, context: Exchange, hit: CacheHit): ChatResponse {
  const { answer } = hit;
  const { mode } = context;
  const usage = hitUsage(answer);
  const cost = hitCost(usage);
  const latencyMs = Math.round(performance.now() - context.startedAt);
  const served = owner.catalog.get(answer.model);
  const metadata: SvcMetadata = {
    request_id: context.requestId,
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
    intelligence_mode: mode,
    lane: 'turbo',
    model: answer.model,
    cache_hit: true,
    cache_type: hit.layer === 'semantic' ? 'semantic' : 'exact',
    ...(hit.similarity === undefined ? {} : { semantic_similarity: hit.similarity }),
    ...(hit.layer === 'semantic' && answer.requestId !== undefined ? { cached_request_id: answer.requestId } : {}),
  };
  const headers: Record<string, string> = {
    'x-request-id': context.requestId,
    'x-svc-request-id': context.requestId,
    'x-svc-org-id': context.caller.org.id,
    'x-svc-model': answer.model,
    'x-svc-provider': answer.provider,
    'x-svc-tier-used': answer.tier,
    'x-svc-lane-used': 'turbo',
    'x-svc-intelligence-mode': mode,
    'x-svc-cache-hit': 'true',
    'x-svc-cache-type': metadata.cache_type!,
    'x-svc-latency-ms': String(latencyMs),
  };
  if (hit.similarity !== undefined) headers['x-svc-semantic-similarity'] = hit.similarity.toFixed(4);
  if (usage) {
    headers['x-svc-input-tokens'] = String(usage.promptTokens);
    headers['x-svc-output-tokens'] = String(usage.completionTokens);
    headers['x-svc-cost-usd'] = '0';
  }
  owner.recorder.cacheHit({ exchange: context, request, answer, hit, usage, cost, latencyMs, model: served });
  const result: ChatResult = { ...answer.result, ...(usage ? { usage } : {}) };
  if (!request.stream) return { kind: 'json', result, metadata, headers };
  async function* events(): AsyncGenerator<StreamEvent> {
    yield* replayStream(result, usage);
  }
  return { kind: 'stream', events: events(), headers, model: answer.model, metadata: () => metadata };
}

import type { Catalog } from '@svc/catalog';
import { type CacheMiss, cacheEnabled, hitCost, hitUsage, lookupCache, skippedLookup } from './cache-stage.js';
import { tracedFinish } from '../stage-spans.js';
import { cacheHitResponse } from './cache-hit-response.js';
import type { ChatResponse, GatewayDeps } from '../gateway-types.js';
import type { LearnRecorder } from '../learn/learn-records.js';
import { deprecationHeaders } from './deprecation-headers.js';
import { memoryHeader } from './metadata.js';
import { reportShed, runs } from '../switches/switches.js';
import type { ChatTurn } from './chat-turn.js';
import { blockedCallError } from './open-turn.js';

/** What the cache stage uses of the gateway. */
export interface CacheStageOwner {
  deps: Pick<GatewayDeps, 'exactCache' | 'semanticCache' | 'metrics'>;
  catalog: Catalog;
  recorder: LearnRecorder;
}

/**
 * Stage 2 for chat (cache and full modes, unless `svc.enable_cache` is false or a switch sheds
 * it): exact (L0, then L1), then semantic, in the turn's partition. A hit is the answer, free
 * (its spend is zero); a miss remembers where to store the answer once complete. The request's
 * `Cache-Control` (the exchange's `cacheDirective`) skips the lookup (`no-cache`: the answer is
 * still stored) or the whole stage (`no-store`). A hit that holds
 * a tool call the organisation's policy blocks is refused like a provider's answer would be.
 */
export async function answerFromCache(owner: CacheStageOwner, turn: ChatTurn, onExactMiss?: () => void): Promise<{ response: ChatResponse } | { miss: CacheMiss | undefined }> {
  const { request, exchange, switches, shed } = turn;
  const { exactCache, semanticCache } = owner.deps;
  const cacheRuns = cacheEnabled(exchange.mode, request) && exchange.cacheDirective !== 'no-store';
  const exact = cacheRuns && exactCache && runs(switches, 'exact_cache', shed) ? exactCache : undefined;
  const semantic = cacheRuns && semanticCache && runs(switches, 'semantic_cache', shed) ? semanticCache : undefined;
  if (!exact && !semantic) return { miss: undefined };
  if (exchange.cacheDirective === 'no-cache') return { miss: skippedLookup(exact, semantic, request, turn.partition) };
  const cached = await lookupCache(exact, semantic, request, turn.partition, onExactMiss);
  if ('miss' in cached) return cached;
  const blocked = turn.governance ? blockedCallError(cached.hit.answer.result, turn.governance) : undefined;
  if (blocked) throw blocked;
  const { hit } = cached;
  const usage = hitUsage(hit.answer);
  const cost = hitCost(usage);
  const latencyMs = Math.round(performance.now() - exchange.startedAt);
  const served = owner.catalog.get(hit.answer.model);
  const metadata = tracedFinish(owner.recorder, turn, { kind: 'cached', hit, usage, cost, latencyMs, model: served });
  const response = cacheHitResponse({ request, exchange, hit, usage, cost, latencyMs, metadata });
  // A hit answers for the model that wrote it: a retiring model's headers as on its own answers.
  Object.assign(response.headers, memoryHeader(metadata.memory), turn.spend.headers, served?.retiresAt === undefined ? {} : deprecationHeaders(served));
  reportShed(switches, shed, owner.deps.metrics, response.headers);
  return { response };
}

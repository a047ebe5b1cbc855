import type { CachedAnswer, CacheLayer, ChatRequest, ChatResult, IntelligenceMode, Usage } from '@svc/core';
import { type Cost, cacheHitCost } from '@svc/billing';

/** The exact cache as the pipeline uses it (`@svc/cache` in production). */
export interface ExactCachePort {
  /** The entry key (shared only with `audience` when given), or undefined when the request must not be cached (policy). */
  key(request: ChatRequest, orgId: string, audience?: string): string | undefined;
  get(key: string): Promise<{ answer: CachedAnswer; layer: 'l0' | 'l1' } | undefined>;
  /** Fire and forget: never rejects. */
  set(key: string, orgId: string, answer: CachedAnswer): void;
}

/** What a semantic lookup found; a miss may carry what `store` can reuse (the embedding). */
export type SemanticLookup = { hit: true; answer: CachedAnswer; similarity: number } | { hit: false; reuse?: unknown };

/** The semantic cache as the pipeline uses it (`@svc/semantic` in production). */
export interface SemanticCachePort {
  /** Undefined when the request is not eligible; a store failure is a miss, never a throw. */
  lookup(request: ChatRequest, orgId: string, audience?: string): Promise<SemanticLookup | undefined>;
  /** Fire and forget: never rejects. */
  store(request: ChatRequest, orgId: string, answer: CachedAnswer, miss: SemanticLookup | undefined, audience?: string): void;
}

export interface CacheHit {
  answer: CachedAnswer;
  layer: CacheLayer;
  /** Semantic hits only. */
  similarity?: number;
}

/**
 * Where cached answers are shared: the organisation, or only `audience` inside it. In mode `full`
 * with memory the audience is the caller's memory scope, so an answer that may hold what one end
 * user told the gateway is never served to another (docs/memory.md).
 */
export interface CachePartition {
  orgId: string;
  audience?: string;
}

/** What a miss remembers so the answer can be stored once it is complete. */
export interface CacheMiss {
  partition: CachePartition;
  exactKey: string | undefined;
  semantic: SemanticLookup | undefined;
}

/** Whether the cache stage runs: `cache` and `full` modes, AND-gated with `svc.enable_cache` (spec §Intelligence modes). */
export function cacheEnabled(mode: IntelligenceMode, request: ChatRequest): boolean {
  return mode !== 'proxy' && request.svc?.enableCache !== false;
}

/**
 * What the request's `Cache-Control` header asks of the answer cache: `no-cache` skips the lookup
 * (the fresh answer is still stored), `no-store` skips the lookup and the store. Absent: both run.
 */
export type CacheDirective = 'no-cache' | 'no-store';

/** The strongest cache directive of a `Cache-Control` request header (`no-store` wins), if any. */
export function cacheDirectiveOf(header: string | undefined): CacheDirective | undefined {
  if (!header) return undefined;
  const directives = new Set(header.split(',').map((part) => part.trim().toLowerCase()));
  if (directives.has('no-store')) return 'no-store';
  return directives.has('no-cache') ? 'no-cache' : undefined;
}

/**
 * Where a request that skips the lookup (`Cache-Control: no-cache`) stores its fresh answer: the
 * same exact key and semantic entry a lookup would have searched.
 */
export function skippedLookup(exact: ExactCachePort | undefined, semantic: SemanticCachePort | undefined, request: ChatRequest, partition: CachePartition): CacheMiss {
  return { partition, exactKey: exact?.key(request, partition.orgId, partition.audience), semantic: semantic ? { hit: false } : undefined };
}

/** Stage 2: exact (L0, then L1), then semantic; `onExactMiss` starts what a miss will need while the semantic cache looks up. */
export async function lookupCache(
  exact: ExactCachePort | undefined,
  semantic: SemanticCachePort | undefined,
  request: ChatRequest,
  partition: CachePartition,
  onExactMiss?: () => void,
): Promise<{ hit: CacheHit } | { miss: CacheMiss }> {
  const { orgId, audience } = partition;
  const exactKey = exact?.key(request, orgId, audience);
  if (exactKey !== undefined) {
    const found = await exact!.get(exactKey);
    if (found) return { hit: { answer: found.answer, layer: found.layer } };
  }
  onExactMiss?.();
  const found = semantic ? await semantic.lookup(request, orgId, audience) : undefined;
  if (found?.hit) return { hit: { answer: found.answer, layer: 'semantic', similarity: found.similarity } };
  return { miss: { partition, exactKey, semantic: found } };
}

/** Whether an answer may be stored: every choice ended on its own (not filtered, not cut). */
export function storable(result: ChatResult): boolean {
  if (result.choices.length === 0) return false;
  for (const choice of result.choices) if (choice.finishReason === 'content_filter') return false;
  return true;
}

/** Stores a complete answer in both caches, in the partition the lookup searched (fire and forget). */
export function storeAnswer(exact: ExactCachePort | undefined, semantic: SemanticCachePort | undefined, request: ChatRequest, miss: CacheMiss, answer: CachedAnswer): void {
  if (!storable(answer.result)) return;
  const { orgId, audience } = miss.partition;
  if (miss.exactKey !== undefined) exact?.set(miss.exactKey, orgId, answer);
  if (miss.semantic !== undefined) semantic?.store(request, orgId, answer, miss.semantic, audience);
}

/** A hit's usage: the stored answer's counts, every prompt token marked as served from cache. */
export function hitUsage(answer: CachedAnswer): Usage | undefined {
  const usage = answer.result.usage;
  if (!usage) return undefined;
  return { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens, totalTokens: usage.totalTokens, cachedPromptTokens: usage.promptTokens };
}

/** A hit costs nothing (spec: cache hits consume no tokens and cost nothing); the baseline is saved in full. */
export function hitCost(usage: Usage | undefined): Cost | undefined {
  return usage ? cacheHitCost(usage) : undefined;
}

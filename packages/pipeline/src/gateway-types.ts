import type { GuardrailFetch } from '@svc/guardrails';
import type { Catalog } from '@svc/catalog';
import type { ChatResult, StreamEvent, SvcMetadata } from '@svc/core';
import type { GovernanceSource } from '@svc/governance';
import type { OutputVerifier } from '@svc/healing';
import type { Limiter } from '@svc/billing';
import type { ShadowJudging } from '@svc/judging';
import type { HedgeStats, LatencyTracker } from '@svc/resilience';
import type { LatencyStats, RequestEmbedder, Router } from '@svc/router';
import type { Logger, Metrics } from '@svc/telemetry';
import type { BreakerGate, ProviderLookup } from './call/call.js';
import type { GatewayTimeouts } from './call/deadline.js';
import type { ConfiguredFallbacks } from './chat/fallback-models.js';

export type { GatewayTimeouts };
import type { ExactCachePort, SemanticCachePort } from './chat/cache-stage.js';
import type { ChainLimiter } from './chat/chain-limits.js';
import type { LearnQueue } from './learn/learn-queue.js';
import type { MemoryPort } from './chat/memory-stage.js';
import type { RouterFeedback } from './learn/router-feedback.js';
import type { StickyStore } from './chat/sticky-routes.js';
import type { Switches } from './switches/switches.js';

export type { Exchange } from './exchange.js';

export interface GatewayDeps {
  /** The active catalog: models of configured providers only. */
  catalog: Catalog;
  providers: ProviderLookup;
  learn: Pick<LearnQueue, 'recordUsage' | 'recordDecision'>;
  metrics: Metrics;
  logger: Logger;
  /** Candidates tried per request at most. Default 4. */
  maxAttempts?: number;
  /** Fallback models per explicit model slug (`SVC_CONFIG` `models[].fallbacks`), tried after its own waterfall; a request's `models` replaces them. */
  fallbacks?: ConfiguredFallbacks;
  /** Circuit breakers per model slug (shared through the kv across instances). */
  breakers?: BreakerGate;
  timeouts?: GatewayTimeouts;
  /** Latency learning and hedging (`svc.enable_hedging`, else `config.enabledByDefault`). */
  hedging?: { latency: LatencyTracker; stats: HedgeStats; config: { enabledByDefault: boolean } };
  /** Retries of the last candidate left; default one retry, waits of 200 ms base and 2 s at most. */
  retry?: { maxRetries: number; baseMs: number; capMs: number };
  /** The routing engine; default `@svc/router` over the catalog, learning nothing across restarts. */
  router?: Router;
  /** Where outcomes go to teach the router (queued, learned off the response path). */
  feedback?: Pick<RouterFeedback, 'record'>;
  /** Live latency per model for routing (fed by every successful attempt). Default: an in-process EWMA. */
  routerLatency?: LatencyStats;
  /** Sticky chain routes shared across instances; absent: chains are not sticky. */
  sticky?: StickyStore;
  /** `max_chain_steps` / `chain_timeout_secs` enforcement; absent: not enforced. */
  chains?: ChainLimiter;
  /** RPM/TPM limits, monthly budget and token quota per organisation; absent: none enforced. */
  limiter?: Pick<Limiter, 'admit'>;
  /** Tool governance per organisation (registry, blocked tools and arguments); absent: not enforced. */
  governance?: Pick<GovernanceSource, 'get'>;
  /**
   * Providers configured with an organisation's own keys (BYOK): tried before the platform's for
   * the same provider, and the answer is attributed `byok`. Sync when cached.
   */
  byok?: { forOrg(orgId: string): ProviderLookup | undefined | Promise<ProviderLookup | undefined> };
  /** JSON output verification (one per process: it caches compiled schemas). Default: a new one. */
  verifier?: OutputVerifier;
  /** Exact cache (L0 in-process, L1 shared); absent: no exact caching. */
  exactCache?: ExactCachePort;
  /** Semantic cache; absent: no semantic caching. */
  semanticCache?: SemanticCachePort;
  /** Per-organisation memory: recalled into and stored from requests in mode `full`. */
  memory?: MemoryPort;
  /**
   * The shared sentence encoder, when it is the one the router's quality model was trained on
   * (all-MiniLM-L6-v2): cache and full modes then route alias requests with the embedding of the
   * last user message (`chat/request-embedding.ts`). Absent: routing reads the text signals only.
   */
  sentences?: RequestEmbedder;
  /**
   * Feature flags and the degradation level (shared across instances); read once per request,
   * no I/O. Absent: every optional stage runs.
   */
  switches?: { readonly current: Switches };
  /**
   * Shadow judging (`@svc/judging`): every JSON answer is offered after it is built; the offer
   * returns at once and everything else happens in later macrotasks. Absent: no shadow judging.
   */
  shadow?: Pick<ShadowJudging, 'accepts' | 'offer'>;
  /**
   * How guardrail webhooks reach the operator's service (the app passes a fetch that refuses
   * private addresses unless allowed); absent: every webhook check fails and its failure mode applies.
   */
  guardrailFetch?: GuardrailFetch;
}



export interface ChatJsonResponse {
  kind: 'json';
  result: ChatResult;
  metadata: SvcMetadata;
  /** Made for this response alone: the route may add its own headers to it (no copy). */
  headers: Record<string, string>;
}

export interface ChatStreamResponse {
  kind: 'stream';
  /** Upstream events, the first one already received. Iterate once. */
  events: AsyncIterable<StreamEvent>;
  /** Headers known before the first byte. */
  headers: Record<string, string>;
  /** The served model's slug, for the chunks' `model` field. */
  model: string;
  /** `svc_metadata` with cost, available once `events` is exhausted. */
  metadata(): SvcMetadata | undefined;
}

export type ChatResponse = ChatJsonResponse | ChatStreamResponse;

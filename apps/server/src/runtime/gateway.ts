import type { ByokService } from '@svc/byok';
import type { Catalog } from '@svc/catalog';
import type { Limiter } from '@svc/billing';
import type { CachedGovernanceSource } from '@svc/governance';
import type { createOutputVerifier } from '@svc/healing';
import type { MemoryStore } from '@svc/memory';
import { ChainLimiter, Gateway, type LearnSink, type SharedSwitches, createKvStickyStore } from '@svc/pipeline';
import type { ProviderRegistry } from '@svc/providers';
import type { CircuitBreakers, HedgeStats, LatencyTracker } from '@svc/resilience';
import type { CacheService } from './cache.js';
import type { ConfigFile } from './config-file.js';
import type { Routing } from './routing.js';
import type { RuntimeBase } from './runtime-base.js';

/** The parts of the runtime the chat pipeline runs on. */
export interface GatewayParts {
  file: ConfigFile | undefined;
  catalog: Catalog;
  providers: ProviderRegistry;
  routing: Routing;
  limiter: Limiter;
  governance: CachedGovernanceSource;
  verifier: ReturnType<typeof createOutputVerifier>;
  cache: CacheService;
  memory: MemoryStore;
  switches: SharedSwitches;
  byok: ByokService;
  learn: LearnSink;
  breakers: CircuitBreakers;
  hedging: { latency: LatencyTracker; stats: HedgeStats; config: { enabledByDefault: boolean } };
}

/** Per-provider first-byte timeouts of SVC_CONFIG. */
function perProviderTimeouts(file: ConfigFile | undefined): Record<string, { firstByteMs: number }> {
  const perProvider: Record<string, { firstByteMs: number }> = {};
  for (const [id, entry] of Object.entries(file?.providers ?? {})) {
    if (entry.first_byte_timeout_ms !== undefined) perProvider[id] = { firstByteMs: entry.first_byte_timeout_ms };
  }
  return perProvider;
}

/** The chat pipeline over the runtime's parts, with the environment's timeouts, retries, sticky routes and chain limits. */
export function createGateway({ env, kv, metrics, logger }: RuntimeBase, parts: GatewayParts): Gateway {
  const { cache, routing } = parts;
  return new Gateway({
    limiter: parts.limiter,
    governance: parts.governance,
    verifier: parts.verifier,
    ...(cache.exact ? { exactCache: cache.exact } : {}),
    ...(cache.semantic ? { semanticCache: cache.semantic } : {}),
    memory: parts.memory,
    switches: parts.switches,
    router: routing.router,
    routerLatency: routing.routerLatency,
    feedback: routing.feedback,
    sticky: createKvStickyStore({ kv, ttlMs: env.SVC_STICKY_TTL_SECS * 1000, onError: (error) => logger.warn({ err: error }, 'sticky routes unavailable') }),
    chains: new ChainLimiter({ kv, defaults: { maxSteps: env.SVC_CHAIN_MAX_STEPS, timeoutSecs: env.SVC_CHAIN_TIMEOUT_SECS } }),
    catalog: parts.catalog,
    providers: parts.providers,
    byok: parts.byok,
    learn: parts.learn,
    metrics,
    logger,
    // SVC_BREAKER_CONSECUTIVE_FAILURES=0 turns breakers off (benchmarks of raw fallback, tests).
    ...(env.SVC_BREAKER_CONSECUTIVE_FAILURES > 0 ? { breakers: parts.breakers } : {}),
    timeouts: { requestMs: env.SVC_REQUEST_TIMEOUT_MS, firstByteMs: env.SVC_FIRST_BYTE_TIMEOUT_MS, perProvider: perProviderTimeouts(parts.file) },
    retry: { maxRetries: env.SVC_RETRY_MAX, baseMs: 200, capMs: 2_000 },
    hedging: parts.hedging,
  });
}

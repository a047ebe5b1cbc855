import type { ByokService } from '@svc/byok';
import type { Catalog } from '@svc/catalog';
import type { Limiter } from '@svc/billing';
import type { CachedGovernanceSource } from '@svc/governance';
import type { createOutputVerifier } from '@svc/healing';
import type { ShadowJudging } from '@svc/judging';
import { type McpFetch, guardedFetch } from '@svc/mcp';
import type { MemoryStore } from '@svc/memory';
import { ChainLimiter, type ConfiguredFallbacks, Gateway, type GatewayTimeouts, type LearnSink, type SharedSwitches, createKvStickyStore } from '@svc/pipeline';
import type { RequestEmbedder } from '@svc/router';
import type { ProviderRegistry } from '@svc/providers';
import type { CircuitBreakers, HedgeStats, LatencyTracker } from '@svc/resilience';
import type { CacheService } from './cache.js';
import type { ConfigFile } from './config-file.js';
import type { Routing } from './routing.js';
import type { RuntimeBase } from './runtime-base.js';
import { ConfigError } from './env.js';

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
  /** The request deadline and first-byte bounds (`gatewayTimeouts`): chat's and the unit stages'. */
  timeouts: GatewayTimeouts;
  /** The shared sentence encoder, for the router's quality model: absent with the hashed stand-in. */
  sentences: RequestEmbedder | undefined;
  /** Shadow judging: every JSON answer is offered, off the response path. */
  shadow: ShadowJudging;
}

/** Per-provider first-byte timeouts of SVC_CONFIG. */
function perProviderTimeouts(file: ConfigFile | undefined): Record<string, { firstByteMs: number }> {
  const perProvider: Record<string, { firstByteMs: number }> = {};
  for (const [id, entry] of Object.entries(file?.providers ?? {})) {
    if (entry.first_byte_timeout_ms !== undefined) perProvider[id] = { firstByteMs: entry.first_byte_timeout_ms };
  }
  return perProvider;
}

/** The request deadline and first-byte bounds of every provider call, from the environment and SVC_CONFIG. */
export function gatewayTimeouts(env: RuntimeBase['env'], file: ConfigFile | undefined): GatewayTimeouts {
  return { requestMs: env.SVC_REQUEST_TIMEOUT_MS, firstByteMs: env.SVC_FIRST_BYTE_TIMEOUT_MS, perProvider: perProviderTimeouts(file) };
}

/**
 * SVC_CONFIG's `models[i].fallbacks`, keyed and listed by catalog slug. A model the active
 * catalog lacks (unknown, or its provider not configured) refuses the start, naming it.
 */
export function configuredFallbacks(file: ConfigFile | undefined, catalog: Catalog): ConfiguredFallbacks {
  const fallbacks: Record<string, readonly string[]> = {};
  for (const [at, entry] of (file?.models ?? []).entries()) {
    if (!entry.fallbacks) continue;
    const slugOf = (name: string, where: string) => {
      const model = catalog.resolve(name);
      if (model?.kind !== 'chat') throw new ConfigError('SVC_CONFIG', `${where}: '${name}' is not a chat model of a configured provider (GET /v1/models lists them)`);
      return model.id;
    };
    fallbacks[slugOf(entry.id, `models[${at}].id`)] = entry.fallbacks.map((name, index) => slugOf(name, `models[${at}].fallbacks[${index}]`));
  }
  return fallbacks;
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
    // The router's quality model reads MiniLM vectors: the hashed stand-in would mislead it.
    ...(parts.sentences ? { sentences: parts.sentences } : {}),
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
    timeouts: parts.timeouts,
    fallbacks: configuredFallbacks(parts.file, parts.catalog),
    retry: { maxRetries: env.SVC_RETRY_MAX, baseMs: 200, capMs: 2_000 },
    hedging: parts.hedging,
    shadow: parts.shadow,
    guardrailFetch: guardrailWebhookFetch(env.SVC_MCP_ALLOW_PRIVATE_URLS ?? false),
  });
}

/** Largest verdict a guardrail webhook may answer. */
const WEBHOOK_MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Guardrail webhooks are tenant-supplied URLs: the MCP gateway's address policy holds for them
 * (SVC_MCP_ALLOW_PRIVATE_URLS), checked on every resolved address, no redirects, verdicts capped.
 * Built on the first webhook check, so a gateway without one never loads its HTTP client.
 */
function guardrailWebhookFetch(allowPrivate: boolean): McpFetch {
  let fetch: McpFetch | undefined;
  return (url, init) => {
    fetch ??= guardedFetch({ policy: { allowPrivate }, maxResponseBytes: WEBHOOK_MAX_RESPONSE_BYTES });
    return fetch(url, init);
  };
}

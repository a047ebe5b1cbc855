import { type Catalog, createCatalog } from '@svc/catalog';
import { Authenticator, type DashboardAuth, createDashboardAuth } from '@svc/auth';
import type { Database } from '@svc/db';
import { type Kv, createMemoryKv, createRedisKv } from '@svc/kv';
import {
  ChainLimiter,
  Gateway,
  ImageStore,
  KvLearnJournal,
  type LearnSink,
  LearnQueue,
  type LearnWriter,
  RouterFeedback,
  type SharedSwitches,
  type VoiceSettings,
  createKvStickyStore,
  createKvVoiceSessionStore,
  kvWeightStore,
} from '@svc/pipeline';
import { createLatencyStats, createLinUcbPolicy, createRouter } from '@svc/router';
import { type ProviderRegistry, createProviderRegistry, createUndiciHttpClient } from '@svc/providers';
import { CircuitBreakers, HedgeStats, KeyCooldowns, LatencyTracker } from '@svc/resilience';
import { BREAKER_STATE, type Logger, type Metrics, type Tracing, createLogger, createMetrics, createTracing } from '@svc/telemetry';
import { createOutputVerifier } from '@svc/healing';
import { CachedGovernanceSource } from '@svc/governance';
import { Limiter } from '@svc/billing';
import type { ByokService } from '@svc/byok';
import type { AlertEvaluator } from '@svc/alerts';
import { breakerAlertEvent, createAlerts } from './alerts.js';
import { createByok } from './byok.js';
import { type CacheService, createCacheService } from './cache.js';
import { chooseSemanticEmbedder } from './semantic-embedder.js';
import { loadConfigFile } from './config-file.js';
import { providerConfig } from './provider-config.js';
import { openDatabase } from './open-database.js';
import { tracingSettings } from './tracing-settings.js';
import { ConfigError, type Env } from './env.js';
import { type MemoryService, createMemoryService } from './memory.js';
import { startSentenceEncoder } from './sentence-encoder.js';
import type { DiversityThresholds, ReportSettings } from '@svc/control-plane';
import type { DependencyStatus, Readiness } from '@svc/http-kit';
import { probe, summarise } from './readiness.js';
import { reportSettings } from './report-settings.js';
import { createSwitches } from './switches.js';

/** Everything a gateway process runs on, built once from the validated environment. */
export interface Runtime {
  env: Env;
  db: Database;
  kv: Kv;
  /** Models of configured providers only. */
  catalog: Catalog;
  providers: ProviderRegistry;
  authenticator: Authenticator;
  /** Dashboard sign-in: passkeys, sessions (in the kv, shared by every instance), accounts and enrollment links. */
  dashboardAuth: DashboardAuth;
  /** RPM/TPM limits, monthly budgets and quotas, shared through the kv; `spend()` for the admin API. */
  limiter: Limiter;
  /** Each organisation's tool registry and policy (tool governance), cached; changes reach every instance through the kv. */
  governance: CachedGovernanceSource;
  /** Organisations' own provider keys (BYOK): sealed storage and each org's providers, cached; changes reach every instance through the kv. */
  byok: ByokService;
  gateway: Gateway;
  /** The answer caches (exact L0/L1, semantic), their stats and purge. */
  cache: CacheService;
  /** Each organisation's memory (intelligence mode `full`, `POST /v1/memory/search`). */
  memory: MemoryService['store'];
  /** The learn stage: usage ledger and decision log writes, batched off the response path. */
  learn: LearnSink;
  /** Generated images behind their URLs, in the kv for an hour (Redis when configured: any instance serves them). */
  images: ImageStore;
  /** The voice endpoints' platform fee and their sessions (turn history of `full` mode) in the kv. */
  voice: VoiceSettings;
  /** Circuit breakers per model slug, shared through the kv (Redis when configured). */
  breakers: CircuitBreakers;
  /** Feature flags and the degradation level, shared by every instance through the kv. */
  switches: SharedSwitches;
  /** Alerts from SLOs, breaker transitions and limit refusals (`/v1/alerts/history`); started, stopped by `close`. */
  alerts: AlertEvaluator;
  /** Per-model latency (this instance) and hedging counters; `config` is changed at run time. */
  hedging: { latency: LatencyTracker; stats: HedgeStats; config: { enabledByDefault: boolean } };
  /** Arm-collapse alarm thresholds of the routing diversity report (`SVC_DIVERSITY_*`). */
  diversity: DiversityThresholds;
  /** Thresholds of the drift, regression-gate and capability-matrix reports. */
  reports: ReportSettings;
  metrics: Metrics;
  logger: Logger;
  /** OpenTelemetry traces (OTEL_* variables); a no-op when no endpoint is set. */
  tracing: Tracing;
  mockEnabled: boolean;
  readiness(): Promise<Readiness>;
  /** Flushes the learn queue and closes the stores. Idempotent. */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Injected fetch for provider calls (tests). */
  fetch?: typeof globalThis.fetch;
  logger?: Logger;
  /** Lifetime of generated images' URLs in ms; default one hour (the spec's). Tests shorten it. */
  imageUrlTtlMs?: number;
}

export async function createRuntime(env: Env, options: RuntimeOptions = {}): Promise<Runtime> {
  const logger = options.logger ?? createLogger({ level: env.LOG_LEVEL });
  const file = env.SVC_CONFIG ? await loadConfigFile(env.SVC_CONFIG) : undefined;
  const { config, mockEnabled } = providerConfig(env, file);
  // One keep-alive connection pool per runtime for every provider; closed with the runtime.
  const http = options.fetch ? undefined : createUndiciHttpClient({ connectTimeoutMs: env.SVC_CONNECT_TIMEOUT_MS });
  if (options.fetch) config.fetch = options.fetch;
  else config.http = http;
  const kv = env.REDIS_URL ? createRedisKv({ url: env.REDIS_URL }) : createMemoryKv();
  let providers: ProviderRegistry;
  // Keys that keep failing (401/402/429) cool down for a minute on every instance sharing the kv.
  config.keyCooldowns = new KeyCooldowns({ kv, onError: (error) => logger.warn({ err: error }, 'key cooldown state unavailable') });
  try {
    providers = createProviderRegistry(config);
  } catch (error) {
    throw new ConfigError(env.SVC_CONFIG ? 'SVC_CONFIG' : 'provider configuration', (error as Error).message);
  }
  const catalog = createCatalog().forProviders(providers.ids());

  const tracing = createTracing(tracingSettings(env));
  const db = await openDatabase(env, 'gateway');
  const metrics = createMetrics();
  const writer: LearnWriter = {
    writeUsage: async (events) => {
      await db.usage.insertMany(events);
    },
    writeDecisions: async (rows) => {
      await db.decisions.insertMany(rows);
    },
  };
  const onLearnError = (error: unknown) => logger.error({ err: error }, 'learn stage: batch write failed; will retry');
  // With a shared kv the ledger is journaled there first (Redis Streams): a crash loses nothing queued.
  const learn: LearnSink = env.REDIS_URL
    ? new KvLearnJournal({ kv, writer, flushIntervalMs: env.SVC_LEARN_FLUSH_MS, onError: onLearnError })
    : new LearnQueue({ writer, flushIntervalMs: env.SVC_LEARN_FLUSH_MS, onError: onLearnError });
  metrics.watch({
    learn: () => {
      const backlog = learn.lastBacklog();
      const stats = learn.stats();
      return { depth: backlog.usage + backlog.decisions, processed: stats.processed, failures: stats.failures, oldestPendingAt: backlog.oldestPendingAt };
    },
  });
  const authenticator = new Authenticator({ store: db, bus: kv });
  await authenticator.start();
  if (env.SVC_MASTER_KEY) await authenticator.ensureMasterKey(env.SVC_MASTER_KEY);
  const dashboardAuth = createDashboardAuth({
    rp: env.dashboard,
    store: db,
    kv,
    sessionTtlMs: env.SVC_SESSION_TTL_SECS * 1000,
    enrollmentTtlMs: env.SVC_ENROLLMENT_TTL_SECS * 1000,
  });
  const governance = new CachedGovernanceSource({
    load: async (orgId) => {
      const [tools, policy] = await Promise.all([db.toolGovernance.listTools(orgId), db.toolGovernance.getPolicy(orgId)]);
      return { tools, policy };
    },
    bus: kv,
    onError: (error, orgId) => logger.warn({ err: error, orgId }, 'tool governance unavailable; serving the last snapshot'),
  });
  await governance.start();
  const byok = createByok(env, { store: db.providerKeys, kv, platform: config, logger });
  await byok.start();
  // The evaluator reads breaker states lazily: breakers report their transitions to it.
  const alerts = createAlerts(env, db, kv, logger, () => breakers);
  const breakers: CircuitBreakers = new CircuitBreakers({
    kv,
    consecutiveFailures: Math.max(1, env.SVC_BREAKER_CONSECUTIVE_FAILURES),
    cooldownBaseMs: env.SVC_BREAKER_COOLDOWN_MS,
    // Relapses double the cooldown up to 5 min, or up to the first cooldown when that is longer.
    cooldownMaxMs: Math.max(300_000, env.SVC_BREAKER_COOLDOWN_MS),
    onTransition: (transition) => {
      const slash = transition.key.indexOf('/');
      metrics.breakerState.set({ provider: transition.key.slice(0, slash), model: transition.key }, transition.to === 'half_open' ? BREAKER_STATE.halfOpen : BREAKER_STATE[transition.to]);
      logger.warn({ breaker: transition.key, from: transition.from, to: transition.to, reason: transition.reason }, 'circuit breaker transition');
      breakerAlertEvent(alerts, transition);
    },
    onError: (error) => logger.error({ err: error }, 'circuit breaker state unavailable; admitting calls'),
  });
  const hedging = { latency: new LatencyTracker(), stats: new HedgeStats(), config: { enabledByDefault: env.SVC_HEDGING_DEFAULT ?? false } };
  const perProvider: Record<string, { firstByteMs: number }> = {};
  for (const [id, entry] of Object.entries(file?.providers ?? {})) {
    if (entry.first_byte_timeout_ms !== undefined) perProvider[id] = { firstByteMs: entry.first_byte_timeout_ms };
  }
  const switches = createSwitches(env, file, kv, metrics, logger);
  await switches.start();
  const routerLatency = createLatencyStats();
  const router = createRouter({
    catalog,
    latency: routerLatency,
    policy: createLinUcbPolicy({ explore: () => switches.current.flags.router_exploration }),
    state: { weights: kvWeightStore(kv) },
  });
  const feedback = new RouterFeedback({
    router,
    saveIntervalMs: env.SVC_ROUTER_SAVE_INTERVAL_MS,
    onError: (error, what) => logger.warn({ err: error }, `${what} failed`),
  });
  await feedback.restore();
  // One verifier per process (it caches compiled schemas); warmed now so the first JSON-schema answer does not pay ajv's start-up.
  const verifier = createOutputVerifier();
  verifier.warmUp();
  // The sentence encoder first: the semantic cache embeds with it by default (SVC_SEMANTIC_EMBEDDER=shared).
  const encoder = await startSentenceEncoder(env);
  let cache: CacheService;
  try {
    cache = createCacheService(env, kv, logger, () =>
      chooseSemanticEmbedder({ setting: env.SVC_SEMANTIC_EMBEDDER, threshold: env.SVC_SEMANTIC_THRESHOLD, shared: encoder.embedder, catalog, providers, metrics }),
    );
  } catch (error) {
    await encoder.close();
    throw error;
  }
  await cache.start();
  const memory: MemoryService = createMemoryService(env, db, kv, logger, encoder.embedder);
  await memory.start();
  // Limits: atomic across instances in the kv; a missing month is seeded from the usage ledger.
  const limiter = new Limiter({
    kv,
    loadMonth: async (orgId, month) => {
      const summary = await db.usage.summary(orgId, month.start);
      return { spentUsd: summary.costUsd, tokens: summary.totalTokens };
    },
    loadKeyMonth: async (orgId, keyId, month) => {
      const summary = await db.usage.summary(orgId, month.start, keyId);
      return { spentUsd: summary.costUsd, tokens: summary.totalTokens };
    },
    onError: (error) => logger.warn({ err: error }, 'limits state unavailable; admitting'),
    onRefusal: (refusal) => alerts.emit({ type: 'limit_refused', orgId: refusal.orgId, kind: refusal.kind }),
  });
  const gateway = new Gateway({
    limiter,
    governance,
    verifier,
    ...(cache.exact ? { exactCache: cache.exact } : {}),
    ...(cache.semantic ? { semanticCache: cache.semantic } : {}),
    memory: memory.store,
    switches,
    router,
    routerLatency,
    feedback,
    sticky: createKvStickyStore({ kv, ttlMs: env.SVC_STICKY_TTL_SECS * 1000, onError: (error) => logger.warn({ err: error }, 'sticky routes unavailable') }),
    chains: new ChainLimiter({ kv, defaults: { maxSteps: env.SVC_CHAIN_MAX_STEPS, timeoutSecs: env.SVC_CHAIN_TIMEOUT_SECS } }),
    catalog,
    providers,
    byok,
    learn,
    metrics,
    logger,
    // SVC_BREAKER_CONSECUTIVE_FAILURES=0 turns breakers off (benchmarks of raw fallback, tests).
    ...(env.SVC_BREAKER_CONSECUTIVE_FAILURES > 0 ? { breakers } : {}),
    timeouts: { requestMs: env.SVC_REQUEST_TIMEOUT_MS, firstByteMs: env.SVC_FIRST_BYTE_TIMEOUT_MS, perProvider },
    retry: { maxRetries: env.SVC_RETRY_MAX, baseMs: 200, capMs: 2_000 },
    hedging,
  });

  let closed: Promise<void> | undefined;
  return {
    env,
    tracing,
    db,
    kv,
    catalog,
    providers,
    authenticator,
    dashboardAuth,
    governance,
    byok,
    gateway,
    limiter,
    cache,
    memory: memory.store,
    learn,
    images: new ImageStore({ kv, ...(options.imageUrlTtlMs === undefined ? {} : { ttlMs: options.imageUrlTtlMs }) }),
    voice: {
      platformFeePerMinute: env.SVC_VOICE_PLATFORM_FEE_PER_MINUTE,
      sessions: createKvVoiceSessionStore({ kv, onError: (error) => logger.warn({ err: error }, 'voice sessions unavailable; the turn runs without its history') }),
    },
    breakers,
    switches,
    alerts,
    hedging,
    diversity: { entropyFloorBits: env.SVC_DIVERSITY_ENTROPY_FLOOR_BITS, armShareCap: env.SVC_DIVERSITY_ARM_SHARE_CAP, minDecisions: env.SVC_DIVERSITY_MIN_DECISIONS },
    reports: reportSettings(env),
    metrics,
    logger,
    mockEnabled,
    async readiness() {
      const store = cache.vectorStore;
      const [database, shared, vectors] = await Promise.all([
        probe(() => db.ping(), 1_000),
        probe(() => kv.ping(), 1_000),
        store ? probe(() => store.ping(), 1_000) : Promise.resolve(undefined),
      ]);
      const vectorDb: DependencyStatus = vectors
        ? { status: vectors.up ? 'up' : 'down', backend: store!.backend, required: false, latency_ms: vectors.latencyMs }
        : { status: 'up', backend: 'disabled', required: false };
      return summarise({
        database: { status: database.up ? 'up' : 'down', backend: db.kind, required: true, latency_ms: database.latencyMs },
        kv: { status: shared.up ? 'up' : 'down', backend: env.REDIS_URL ? 'redis' : 'in_process', required: true, latency_ms: shared.latencyMs },
        // Optional: when it is down the gateway serves on, semantic lookups become misses (degraded).
        vector_db: vectorDb,
        encoder: encoder.status(),
      });
    },
    close() {
      closed ??= (async () => {
        await Promise.all([learn.close(), feedback.close(), cache.close(), memory.close(), alerts.stop()]);
        await encoder.close();
        await Promise.all([authenticator.stop(), governance.stop(), byok.stop(), switches.stop()]);
        await kv.close();
        await db.close();
        await http?.close();
        await tracing.shutdown();
      })();
      return closed;
    },
  };
}

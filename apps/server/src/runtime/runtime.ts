import type { AlertEvaluator } from '@svc/alerts';
import type { DashboardAuth, Authenticator } from '@svc/auth';
import type { Limiter } from '@svc/billing';
import type { ByokService } from '@svc/byok';
import { type Catalog, LiveCatalog } from '@svc/catalog';
import type { DiversityThresholds, ReportSettings } from '@svc/control-plane';
import type { Database } from '@svc/db';
import type { McpGateway, McpRegistry } from '@svc/mcp';
import type { CachedGovernanceSource } from '@svc/governance';
import { createOutputVerifier } from '@svc/healing';
import type { Readiness } from '@svc/http-kit';
import { type Kv, createMemoryKv, createRedisKv, deploymentNamespace } from '@svc/kv';
import { type Gateway, type GatewayTimeouts, ImageStore, type LearnSink, type SharedSwitches, type VoiceSettings, createKvVoiceSessionStore } from '@svc/pipeline';
import { type ProviderRegistry, type UndiciHttpClient, loadConfiguredProviders } from '@svc/providers';
import { type CircuitBreakers, HedgeStats, LatencyTracker } from '@svc/resilience';
import { type Logger, type Metrics, type Tracing, createLogger, createMetrics, createTracing } from '@svc/telemetry';
import { type Access, startAccess } from './access.js';
import { createAlerts } from './alerts.js';
import { createBreakers } from './breakers.js';
import { closeInStages } from './close-in-stages.js';
import type { CacheService } from './cache.js';
import { type ConfigFile, loadConfigFile } from './config-file.js';
import { passThroughOptions } from './config-models.js';
import type { ModelStore } from './model-store.js';
import { discoverer, startModelStore } from './models.js';
import { startEmbeddingStores } from './embedding-stores.js';
import type { Env } from './env.js';
import { createGateway, gatewayTimeouts } from './gateway.js';
import { type ShadowService, createShadowSettings, startShadowService } from './shadow.js';
import { createLearnSink } from './learn.js';
import { createLimiter } from './limiter.js';
import type { MemoryService } from './memory.js';
import { createMcpGateway, startTenantCredentials } from './mcp.js';
import { openDatabase } from './open-database.js';
import { providerConfig } from './provider-config.js';
import { wireProviders } from './providers.js';
import { runtimeReadiness } from './readiness.js';
import { reportSettings } from './report-settings.js';
import { type KeptFiles, keepFiles } from './files.js';
import { type KeptResponses, keepResponses } from './responses.js';
import { type Routing, startRouting } from './routing.js';
import type { RuntimeBase } from './runtime-base.js';
import { servedBefore } from './earlier-release.js';
import type { SentenceEncoderService } from './sentence-encoder.js';
import { createSwitches } from './switches.js';
import { tracingSettings } from './tracing-settings.js';

/** Everything a gateway process runs on, built once from the validated environment. */
export interface Runtime {
  env: Env;
  db: Database;
  kv: Kv;
  /** This deployment's prefix for its deployment-wide kv keys (the store's identity). */
  kvNamespace: string;
  /** Models of configured providers only; a live catalog, swapped when the stored models change. */
  catalog: Catalog;
  /** The models stored through the admin API and the discovery refresh; every instance kept in step through the kv. */
  models: ModelStore;
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
  /** Organisations' registered MCP servers (admin API): URLs checked, header credentials sealed. */
  mcp: McpRegistry;
  /** The MCP gateway at `/mcp`: the registered servers' tools as one server, governed, each call in the ledger. */
  mcpGateway: McpGateway;
  gateway: Gateway;
  /** Shadow judging: sampled answers re-sent to a candidate and judged, off the response path (docs/routing.md). */
  shadow: ShadowService['judging'];
  /** Organisations' shadow-judging settings as the gateway caches them; the admin API invalidates them. */
  shadowSettings: ShadowService['settings'];
  /** The answer caches (exact L0/L1, semantic), their stats and purge. */
  cache: CacheService;
  /** Each organisation's memory (intelligence mode `full`, `POST /v1/memory/search`). */
  memory: MemoryService['store'];
  /** The Responses API's kept answers (`store`, `previous_response_id`), swept when they expire. */
  responses: KeptResponses;
  /** `/v1/files` and the batches' input, output and error files, swept when they expire. */
  files: KeptFiles;
  /** Each organisation's batches (`/v1/batches`); the inference server's batch worker runs them. */
  batches: Database['batches'];
  /** `/v1/feedback`: the feedback table and the router's learning (which saves it with the weights). */
  requestFeedback: { store: Database['feedback']; learner: Routing['feedback']; flushLedger(): Promise<void> };
  /** The learn stage: usage ledger and decision log writes, batched off the response path. */
  learn: LearnSink;
  /** Generated images behind their URLs, in the kv for an hour (Redis when configured: any instance serves them). */
  images: ImageStore;
  /** The voice endpoints' platform fee and their sessions (turn history of `full` mode) in the kv. */
  voice: VoiceSettings;
  /** Circuit breakers per model slug, shared through the kv (Redis when configured). */
  breakers: CircuitBreakers;
  /** The request deadline and first-byte bounds of every provider call (chat and the unit stages). */
  timeouts: GatewayTimeouts;
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

/** What the runtime closes: everything that holds a timer, a connection or a thread. */
interface Closeable {
  mcpGateway: Pick<McpGateway, 'close'>;
  responses: ReturnType<typeof keepResponses>;
  files: ReturnType<typeof keepFiles>;
  learn: LearnSink;
  routing: Routing;
  shadow: ShadowService;
  cache: CacheService;
  memory: MemoryService;
  alerts: AlertEvaluator;
  encoder: SentenceEncoderService;
  access: Access;
  byok: ByokService;
  mcp: McpRegistry;
  switches: SharedSwitches;
  models: ModelStore;
  kv: Kv;
  db: Database;
  http: UndiciHttpClient | undefined;
  tracing: Tracing;
}

/**
 * Flushes the learn queue and closes the stores: writers first, then the readers they need, the
 * stores last; a part that fails does not keep the later ones open (`closeInStages`).
 */
function closeInOrder(parts: Closeable): Promise<void> {
  return closeInStages([
    [() => parts.responses.stop(), () => parts.files.stop()],
    // Judging in flight writes ledger rows and verdicts: it ends before the learn queue flushes.
    [() => parts.shadow.stop()],
    [() => parts.learn.close(), () => parts.routing.feedback.close(), () => parts.cache.close(), () => parts.memory.close(), () => parts.alerts.stop()],
    // After the writers that embed (cache and memory stores), before the process may exit.
    [() => parts.encoder.close()],
    [() => parts.access.authenticator.stop(), () => parts.access.governance.stop(), () => parts.byok.stop(), () => parts.mcp.stop(), () => parts.mcpGateway.close(), () => parts.switches.stop(), () => parts.models.stop()],
    [() => parts.kv.close()],
    [() => parts.db.close()],
    [() => parts.http?.close()],
    [() => parts.tracing.shutdown()],
  ]);
}

/** `run` at most once: later calls get the first call's promise. */
function once(run: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => {
    done ??= run();
    return done;
  };
}

/** A start refused after the stores opened (SVC_MASTER_KEY rotated away) closes them, so the embedded directory is free again. */
function releasing(...stores: Array<{ close(): Promise<void> }>): (error: unknown) => Promise<never> {
  return async (error) => {
    await Promise.allSettled(stores.map((store) => store.close()));
    throw error;
  };
}

/** The providers SVC_CONFIG and the environment configure, with the models found on OpenAI-compatible servers (read once, at start). */
async function startProviders(env: Env, file: ConfigFile | undefined, parts: { kv: Kv; kvNamespace: string; logger: Logger; fetch: RuntimeOptions['fetch'] }) {
  const { config, mockEnabled } = providerConfig(env, file);
  const compatible = config.compatible ?? [];
  const discovery = await discoverer(compatible, file, parts)();
  const wired = wireProviders(env, config, { kv: parts.kv, kvNamespace: parts.kvNamespace, logger: parts.logger, fetch: parts.fetch, file, discovered: discovery.models });
  // Code a configured provider loads beside the package (Bedrock's signing) is loaded before the start ends, never by a call.
  await loadConfiguredProviders(config);
  // Every part reads the catalog through this object; the model store swaps its snapshot on a change.
  const live = new LiveCatalog(wired.catalog);
  return { config, mockEnabled, ...wired, catalog: live, models: { live, providers: wired.providers, file, compatible, discovery, fetch: parts.fetch } };
}

/** Alerts, the shared breakers that report to them, hedging's statistics and the feature switches (started). */
async function startResilience(base: RuntimeBase, file: ConfigFile | undefined) {
  const { env } = base;
  // The evaluator reads breaker states lazily: breakers report their transitions to it.
  const alerts = createAlerts(base, () => breakers);
  const breakers = createBreakers(base, alerts);
  const hedging = { latency: new LatencyTracker(), stats: new HedgeStats(), config: { enabledByDefault: env.SVC_HEDGING_DEFAULT ?? false } };
  const switches = createSwitches(base, file);
  await switches.start();
  return { alerts, breakers, hedging, switches };
}

/** One output verifier per process (it caches compiled schemas), warmed so the first JSON-schema answer does not pay ajv's start-up. */
function warmVerifier() {
  const verifier = createOutputVerifier();
  verifier.warmUp();
  return verifier;
}

/** The voice endpoints' platform fee, and their sessions in the kv. */
function voiceSettings(env: Env, kv: Kv, logger: Logger): VoiceSettings {
  return {
    platformFeePerMinute: env.SVC_VOICE_PLATFORM_FEE_PER_MINUTE,
    sessions: createKvVoiceSessionStore({ kv, onError: (error) => logger.warn({ err: error }, 'voice sessions unavailable; the turn runs without its history') }),
  };
}

/** The store, and what every part is wired from: the kv's deployment-wide keys are named by the store's identity. */
async function openBase(env: Env, kv: Kv, logger: Logger): Promise<RuntimeBase> {
  const db = await openDatabase(env, 'gateway', (note) => logger[note.level](note.message));
  const kvNamespace = deploymentNamespace(await db.storeIdentity.id().catch(releasing(kv, db)));
  return { env, db, kv, kvNamespace, servedBefore: await servedBefore(db).catch(releasing(kv, db)), metrics: createMetrics(), logger };
}

export async function createRuntime(env: Env, options: RuntimeOptions = {}): Promise<Runtime> {
  const logger = options.logger ?? createLogger({ level: env.LOG_LEVEL });
  const file = env.SVC_CONFIG ? await loadConfigFile(env.SVC_CONFIG) : undefined;
  const kv = env.REDIS_URL ? createRedisKv({ url: env.REDIS_URL }) : createMemoryKv();
  const base = await openBase(env, kv, logger);
  const { db } = base;
  const { config, mockEnabled, providers, catalog, http, models: modelWiring } = await startProviders(env, file, { kv, kvNamespace: base.kvNamespace, logger, fetch: options.fetch }).catch(releasing(kv, db));
  const tracing = await createTracing(tracingSettings(env));
  const access = await startAccess(base).catch(releasing(kv, db));
  const models = await startModelStore(base, modelWiring).catch(releasing(kv, db));
  const learn = await createLearnSink(base).catch(releasing(kv, db));
  const { byok, mcp } = await startTenantCredentials(env, { db, kv, platform: config, logger });
  const { alerts, breakers, hedging, switches } = await startResilience(base, file);
  const shadowSettings = createShadowSettings(base);
  const routing = await startRouting(base, catalog, switches, passThroughOptions(providers, file), shadowSettings);
  const verifier = warmVerifier();
  const { encoder, cache, memory } = await startEmbeddingStores(base, { catalog, providers });
  const responses = keepResponses(env, db, logger);
  const files = keepFiles(env, db, logger);
  const limiter = createLimiter(base, alerts);
  const timeouts = gatewayTimeouts(env, file);
  const sentences = env.SVC_SENTENCE_ENCODER === 'hashed' ? undefined : encoder.embedder;
  const shadow = await startShadowService(base, { catalog, providers, byok, learn, timeouts, limiter, settings: shadowSettings, learner: routing.feedback, choices: routing.router.learner });
  const mcpGateway = createMcpGateway(env, { registry: mcp, governance: access.governance, learn, logger });
  const gateway = createGateway(base, { file, catalog, providers, routing, limiter, governance: access.governance, verifier, cache, memory: memory.store, switches, byok, learn, breakers, hedging, timeouts, sentences, shadow: shadow.judging });
  return {
    ...base,
    ...access,
    tracing,
    catalog,
    models,
    providers,
    byok,
    mcp,
    mcpGateway,
    gateway,
    limiter,
    cache,
    memory: memory.store,
    responses,
    files,
    batches: db.batches,
    requestFeedback: { store: db.feedback, learner: routing.feedback, flushLedger: () => learn.flush() },
    learn,
    images: new ImageStore({ kv, ...(options.imageUrlTtlMs === undefined ? {} : { ttlMs: options.imageUrlTtlMs }) }),
    voice: voiceSettings(env, kv, logger),
    breakers,
    timeouts,
    switches,
    alerts,
    hedging,
    diversity: { entropyFloorBits: env.SVC_DIVERSITY_ENTROPY_FLOOR_BITS, armShareCap: env.SVC_DIVERSITY_ARM_SHARE_CAP, minDecisions: env.SVC_DIVERSITY_MIN_DECISIONS },
    reports: reportSettings(env),
    shadow: shadow.judging,
    shadowSettings: shadow.settings,
    mockEnabled,
    readiness: () => runtimeReadiness({ db, kv, sharedKv: Boolean(env.REDIS_URL), cache, encoder }),
    close: once(() => closeInOrder({ shadow, responses, files, learn, routing, cache, memory, alerts, encoder, access, byok, mcp, mcpGateway, switches, models, kv, db, http, tracing })),
  };
}

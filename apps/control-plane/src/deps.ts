import type { BlockList } from 'node:net';
import type { Authenticator, AuthStore, DashboardAuth } from '@svc/auth';
import type { ByokService } from '@svc/byok';
import type { Catalog, ModelEntry, ModelInfo } from '@svc/catalog';
import type { AlertRepository, DashboardUsageRepository, Database, DashboardUserRepository, DecisionRepository, KeyRepository, LegacyMemoryRepository, OrgRepository, OnboardingRepository, OutputConfigRepository, PasskeyRepository, RequestLogRepository, SettingsRepository, ShadowVerdictRepository, SloRepository, StoredModelRecord, ToolGovernanceRepository, TrafficRepository, UsageRepository } from '@svc/db';
import type { GovernanceSource } from '@svc/governance';
import type { Readiness } from '@svc/http-kit';
import type { Kv } from '@svc/kv';
import type { Limiter } from '@svc/billing';
import type { McpRegistry } from '@svc/mcp';
import type { MemoryStore } from '@svc/memory';
import type { LearnSink, SharedSwitches } from '@svc/pipeline';
import type { CircuitBreakers, HedgeStats, LatencyTracker } from '@svc/resilience';
import type { DriftSettings, GateSettings, MatrixSettings } from '@svc/reports';
import type { Logger, Metrics, Tracing } from '@svc/telemetry';
import type { CacheStatsWire } from './cache-stats-wire.js';

/** What the control-plane app needs; a Runtime provides all of it. */
export interface ControlPlaneDeps {
  authenticator: Authenticator;
  /** Organisations, keys, the routing decision log, tool governance, SLOs, alerts, output configs and onboarding (the relational store). */
  db: AuthStore & {
    /** `pglite` (embedded) or `postgres`. */
    kind: Database['kind'];
    /** A backup of the embedded store (`POST /v1/admin/backup`). */
    backup: Database['backup'];
    /** Memories from before migration 0009 (`GET /v1/admin/orgs/{id}/legacy-memory`). */
    legacyMemories: LegacyMemoryRepository;
    /** The admin API's pages of organisations and keys. */
    orgs: Pick<OrgRepository, 'page'>;
    keys: Pick<KeyRepository, 'page'>;
    decisions: Pick<DecisionRepository, 'get' | 'list' | 'tally' | 'outcomeStats' | 'outcomeStatsByModel' | 'constraintGroups'>;
    toolGovernance: ToolGovernanceRepository;
    dashboardUsers: DashboardUserRepository;
    passkeys: Pick<PasskeyRepository, 'listByUser' | 'delete'>;
    /** The dashboard overview's usage figures. */
    dashboard: DashboardUsageRepository;
    /** Request figures of the observability reports (decision log and usage ledger). */
    traffic: TrafficRepository;
    /** The dashboard's request log. */
    requestLog: RequestLogRepository;
    slos: SloRepository;
    alerts: Pick<AlertRepository, 'list' | 'resolve'>;
    outputConfigs: OutputConfigRepository;
    onboarding: OnboardingRepository;
    /** Cost attribution by metadata tag and the ledger export. */
    usage: Pick<UsageRepository, 'byTag' | 'exportPage'>;
    /** Shadow judging's verdicts: `/benchmarks`' judged win rates and the gate's judged quality. */
    shadowVerdicts: ShadowVerdictRepository;
    /** Per-organisation settings (shadow judging's). */
    settings: SettingsRepository;
  };
  /** The gateway's cached shadow-judging settings: a write drops an organisation's on every instance. */
  shadowSettings: { invalidate(orgId: string): Promise<void> };
  /** Dashboard sign-in: passkeys, sessions, accounts and enrollment links. */
  dashboardAuth: DashboardAuth;
  /** The learn stage (ledger and decision-log writes): `/crane/stats`. */
  learn: Pick<LearnSink, 'stats' | 'backlog'>;
  /** Feature flags and the degradation level, shared by every instance through the kv. */
  switches: Pick<SharedSwitches, 'current' | 'degradation' | 'flags' | 'setDegradation' | 'setFlag'>;
  /** Tool governance snapshots: an admin write invalidates the organisation's, on every instance. */
  governance: Pick<GovernanceSource, 'invalidate'>;
  /** Organisations' own provider keys (BYOK): sealed storage; a write reaches every instance's cache. */
  byok: Pick<ByokService, 'providerIds' | 'supports' | 'list' | 'put' | 'delete'>;
  /** Organisations' registered MCP servers: URLs checked, header credentials sealed at rest. */
  mcp: Pick<McpRegistry, 'list' | 'get' | 'put' | 'delete'>;
  /** The models stored through the admin API, and the discovery refresh: a change reaches every instance's catalog. */
  models: StoredModels;
  /** The active catalog (models of configured providers): the capability matrix, free and family facts of the policy report. */
  catalog: Pick<Catalog, 'list' | 'get' | 'resolve'>;
  /** Shared state: the capability matrix snapshot and its refresh lock (Redis when configured). */
  kv: Pick<Kv, 'get' | 'set' | 'setIfAbsent' | 'delete' | 'ttl'>;
  /** The deployment's prefix for its deployment-wide kv keys (`deploymentNamespace`). */
  kvNamespace: string;
  /** Circuit breakers (the same instances the inference pipeline consults). */
  breakers: Pick<CircuitBreakers, 'list' | 'reset' | 'windowMs'>;
  /** Monthly spend against budgets (`GET /v1/admin/orgs/{id}/spend`). */
  limiter: Pick<Limiter, 'spend' | 'keySpend'>;
  /** Organisations' memory (admin list and forget). */
  memory: Pick<MemoryStore, 'list' | 'forget' | 'forgetSubject'>;
  /** The answer caches: stats and purge. */
  cache: { stats(): CacheStatsWire; purge(orgId?: string): Promise<void> };
  /** Hedging counters, learned latencies and the run-time default. */
  hedging: { latency: Pick<LatencyTracker, 'snapshot'>; stats: Pick<HedgeStats, 'snapshot'>; config: { enabledByDefault: boolean } };
  /** Arm-collapse alarm thresholds of `GET /v1/admin/routing/diversity` (deployment configuration). */
  diversity: DiversityThresholds;
  /** Thresholds of `/drift`, `/gate` and `/matrix` under /v1/admin/routing (deployment configuration). */
  reports: ReportSettings;
  metrics: Metrics;
  logger: Logger;
  /** OpenTelemetry traces: a root span per request, a child per relational repository call. */
  tracing: Tracing;
  /** SVC_TRUSTED_PROXIES: reverse proxies whose X-Forwarded-For names the client (whose failed sign-ins are throttled). */
  trustedProxies?: BlockList | undefined;
  /** SVC_METRICS_TOKEN: the Bearer token `/metrics` requires; absent: loopback callers only. */
  metricsToken?: string;
  readiness(): Promise<Readiness>;
  maxBodyBytes: number;
  /**
   * The control plane's public base URL (`SVC_CONTROL_PUBLIC_URL`): issuer and resource of the
   * `/.well-known/*` documents. Absent: the origin of each request.
   */
  publicUrl?: string | undefined;
}

/** A stored model entry and the catalog model it makes (undefined while its provider is not configured on this instance). */
export interface StoredModelView {
  record: StoredModelRecord;
  model: ModelInfo | undefined;
}

/** What one OpenAI-compatible provider's list said on a refresh: how many models, or why it could not be read. */
export interface ProviderDiscoveryView {
  provider: string;
  url: string;
  models: number | null;
  error?: string;
}

/** The deployment's stored model entries (`/v1/admin/models`) and the discovery refresh. */
export interface StoredModels {
  list(): Promise<StoredModelView[]>;
  get(id: string): Promise<StoredModelView | undefined>;
  /** Stores or replaces the entry; rejects with a 400 GatewayError when the catalog would not take it. */
  put(id: string, fields: Omit<ModelEntry, 'id' | 'fallbacks'>, by: string | null): Promise<{ view: StoredModelView; created: boolean }>;
  delete(id: string): Promise<boolean>;
  /** Reads the OpenAI-compatible providers' `GET /models` again, on every instance. */
  refresh(): Promise<{ providers: ProviderDiscoveryView[]; models: readonly ModelInfo[] }>;
}

/**
 * When the routing diversity report raises an arm-collapse alarm: a scope with at least
 * `minDecisions` decisions whose Shannon entropy is below `entropyFloorBits` (bits) or whose most
 * chosen model's share exceeds `armShareCap` (0..1).
 */
export interface DiversityThresholds {
  entropyFloorBits: number;
  armShareCap: number;
  minDecisions: number;
}

/** Thresholds of the routing reports under /v1/admin/routing (`SVC_DRIFT_*`, `SVC_GATE_*`, `SVC_MATRIX_*`). */
export interface ReportSettings {
  drift: DriftSettings;
  gate: GateSettings;
  matrix: MatrixSettings;
}

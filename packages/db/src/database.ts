import type { DashboardUsageRepository } from './repositories/dashboard-usage.js';
import type { DashboardUserRepository } from './repositories/dashboard-users.js';
import type { BackupFile } from './embedded/backup.js';
import type { AlertRepository } from './repositories/alerts.js';
import type { BatchRepository } from './repositories/batches.js';
import type { FeedbackRepository } from './repositories/feedback.js';
import type { ShadowVerdictRepository } from './repositories/shadow-verdicts.js';
import type { FileRepository } from './repositories/files.js';
import type { DecisionRepository } from './repositories/decisions.js';
import type { KeyRepository } from './repositories/keys.js';
import type { McpServerRepository } from './repositories/mcp-servers.js';
import type { MemoryRepository } from './repositories/memories.js';
import type { LegacyMemoryRepository } from './repositories/legacy-memories.js';
import type { OnboardingRepository } from './repositories/onboarding.js';
import type { OrgRepository } from './repositories/orgs.js';
import type { PasskeyRepository } from './repositories/passkeys.js';
import type { OutputConfigRepository } from './repositories/output-configs.js';
import type { ProviderKeyRepository } from './repositories/provider-keys.js';
import type { SettingsRepository } from './repositories/settings.js';
import type { SloRepository } from './repositories/slos.js';
import type { StoreIdentityRepository } from './repositories/store-identity.js';
import type { StoredModelRepository } from './repositories/stored-models.js';
import type { ResponseRepository } from './repositories/stored-responses.js';
import type { ToolGovernanceRepository } from './repositories/tool-governance.js';
import type { RequestLogRepository } from './repositories/request-log.js';
import type { TrafficRepository } from './repositories/traffic.js';
import type { UsageRepository } from './repositories/usage.js';
import type { RowIntake } from './row-intake.js';

export type DatabaseKind = 'postgres' | 'pglite';

/** The relational store: typed repositories over PostgreSQL or embedded PGlite. */
export interface Database {
  /** Which backend is in use. */
  readonly kind: DatabaseKind;
  readonly orgs: OrgRepository;
  readonly keys: KeyRepository;
  readonly settings: SettingsRepository;
  readonly usage: UsageRepository;
  readonly decisions: DecisionRepository;
  /** Each organisation's feedback on its requests (`POST /v1/feedback`), one row per ledger row. */
  readonly feedback: FeedbackRepository;
  /** Each organisation's tool registry and tool policy. */
  readonly toolGovernance: ToolGovernanceRepository;
  /** Each organisation's own provider credentials (BYOK), sealed by the caller. */
  readonly providerKeys: ProviderKeyRepository;
  /** Each organisation's registered remote MCP servers, their credentials sealed by the caller. */
  readonly mcpServers: McpServerRepository;
  /** Each organisation's end users' stated facts (memory, intelligence mode `full`). */
  readonly memories: MemoryRepository;
  /** Each organisation's memories from before migration 0009 (never recalled; for the admin). */
  readonly legacyMemories: LegacyMemoryRepository;
  /** People who sign in to the dashboard, and their enrollment links. */
  readonly dashboardUsers: DashboardUserRepository;
  /** Dashboard users' passkeys (WebAuthn credentials). */
  readonly passkeys: PasskeyRepository;
  /** The dashboard overview's usage figures (GROUP BY hour/day over the ledger). */
  readonly dashboard: DashboardUsageRepository;
  /** Request figures over the decision log and the usage ledger (observability reports). */
  readonly traffic: TrafficRepository;
  /** The dashboard's request log: requests of the decision log and the ledger, newest first, by pages. */
  readonly requestLog: RequestLogRepository;
  /** Each organisation's service-level objectives, and their compliance computed in SQL. */
  readonly slos: SloRepository;
  /** Alerts raised from SLOs, breakers and limit refusals; one firing alert per condition. */
  readonly alerts: AlertRepository;
  /** Each organisation's output verification defaults. */
  readonly outputConfigs: OutputConfigRepository;
  /** Each organisation's onboarding completions and the queries that derive them. */
  readonly onboarding: OnboardingRepository;
  /** Each organisation's kept Responses-API answers (`store`), until they expire. */
  readonly responses: ResponseRepository;
  /** Each organisation's files (`/v1/files`, batch inputs and outputs), until they expire. */
  readonly files: FileRepository;
  /** Each organisation's batches (`/v1/batches`), their lines and the lease of the worker on each. */
  readonly batches: BatchRepository;
  /** Shadow judging's verdicts (docs/routing.md, "Shadow judging") and the judged-quality reports over them. */
  readonly shadowVerdicts: ShadowVerdictRepository;
  /** The deployment's model entries stored through the admin API (added models, catalog overrides). */
  readonly storedModels: StoredModelRepository;
  /** The store's own id, one for every instance of the deployment (names the ledger's journal in Redis). */
  readonly storeIdentity: StoreIdentityRepository;
  /** The ledger's and the decision log's rows as requests record them: batched and retried by the store (on its thread when embedded). */
  readonly intake: RowIntake;
  /**
   * Writes a backup of every table from one snapshot (the embedded store; PostgreSQL is backed up
   * with its own tools and rejects with StoreError `not_embedded`). The file is the store's
   * until the caller discards it.
   */
  backup(): Promise<BackupFile>;
  /** Applies pending migrations (createDb already did); a no-op when up to date. */
  migrate(): Promise<void>;
  /** True when `SELECT 1` answers within `timeoutMs` (default 2000). Never rejects. */
  ping(timeoutMs?: number): Promise<boolean>;
  /** Closes the pool or the embedded database. Idempotent. */
  close(): Promise<void>;
}

export interface CreateDbOptions {
  /** `postgres://` or `postgresql://` URL; absent = embedded PGlite. */
  url?: string;
  /** PGlite data directory, created if missing; absent or `memory://` = in-memory. */
  dataDir?: string;
  /**
   * PostgreSQL schema holding the tables and the migration journal (test isolation). Created
   * if missing. Default: tables in `public`, journal in `drizzle`.
   */
  schema?: string;
  /** PostgreSQL pool size. Default 10. */
  poolSize?: number;
  /**
   * Limit for opening one PostgreSQL connection, ms (migrations at start get at least 10 s).
   * While the database is unreachable, repository calls then fail with DbUnavailableError, at
   * once for a second after each failure. Default 3000.
   */
  connectTimeoutMs?: number;
  /**
   * Limit for one repository call, ms: a partitioned database keeps connections open and
   * silent, and the driver waits forever. Past it the call is DbUnavailableError. Default 10 000.
   */
  callTimeoutMs?: number;
  /** Run migrations before returning. Default true. */
  migrate?: boolean;
  /** Override where the SQL migrations live (for bundlers that relocate this package). */
  migrationsFolder?: string;
  /** Told what opening the embedded data directory did when there is something to say (an upgrade of an earlier release's directory). */
  log?: (note: StoreNote) => void;
}

/** A line for the start log about the embedded data directory. */
export interface StoreNote {
  level: 'info' | 'warn';
  message: string;
}

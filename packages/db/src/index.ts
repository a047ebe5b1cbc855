export { createDb } from './create-db.js';
export { CONTROL_FILE, DataDirError, type DataDirHolder, LOCK_FILE } from './data-dir-lock.js';
export type { CreateDbOptions, Database, DatabaseKind, StoreNote } from './database.js';
export { StoreError, type StoreErrorReason } from './embedded/store-error.js';
export type { BackupFile, BackupSummary } from './embedded/backup.js';
export type { RestoreReport, RestoreSettings } from './embedded/restore-data-dir.js';
export { restoreDataDir } from './restore.js';
export { DbConflictError } from './errors.js';
export { ROW_BATCH, RowBatches, type RowIntake, type RowKind, type RowTables, encodeRow, reviveDates, reviveRow } from './row-intake.js';
export { packFeatures, unpackFeatures } from './decision-features.js';
export { DbUnavailableError, isDbUnavailable } from './availability.js';
export { defaultMigrationsFolder } from './migrate.js';
export { isUuid } from './repositories/drizzle.js';
export type { BatchHold, BatchUsage, NativeBatchPart } from './schema/batches.js';
// Plain data from modules without drizzle-orm: this index loads no repository, so the gateway's main
// thread, which never queries on the embedded store (its store thread does), does not hold drizzle-orm
// (docs/operations.md "Memory budget"; apps/server's lazy-modules test fails if it does).
export { workableBatchStatuses } from './repositories/batch-statuses.js';
export { FILE_PART_BYTES } from './repositories/file-parts.js';
export { derivedOnboardingSteps } from './repositories/onboarding-steps.js';
export type {
  AlertListOptions,
  AlertRecord,
  AlertRepository,
  AlertStatus,
  AnsweredBatchLine,
  BatchLineRecord,
  BatchPatch,
  BatchRecord,
  BatchRepository,
  BatchStatus,
  CostFigures,
  DailyModelFigures,
  DashboardBucket,
  DashboardRole,
  DashboardUsageFigures,
  DashboardUsagePoint,
  DashboardUsageQuery,
  DashboardUsageRepository,
  DashboardUserPatch,
  DashboardUserRecord,
  DashboardUserRepository,
  DecisionRepository,
  FeedbackRecord,
  FeedbackRepository,
  FeedbackResult,
  NewFeedback,
  FileListOptions,
  FileRecord,
  FileRepository,
  DerivedOnboardingStep,
  KeyRepository,
  LegacyMemoryListOptions,
  LegacyMemoryRecord,
  LegacyMemoryRepository,
  McpServerCredential,
  McpServerRecord,
  StoredModelRecord,
  StoredModelRepository,
  StoreIdentityRepository,
  McpServerRepository,
  NewMcpServer,
  MemoryEntityRecord,
  MemoryListOptions,
  MemoryRecord,
  MemoryRepository,
  NewAlert,
  NewBatch,
  NewDashboardUser,
  NewFile,
  FileCompletion,
  FileToWrite,
  NewMemoryRow,
  NewPasskey,
  NewProviderKey,
  NewRegisteredTool,
  NewSlo,
  NewToolPolicy,
  OnboardingCompletion,
  OnboardingRepository,
  OnboardingSource,
  OrgRepository,
  OutputConfigRecord,
  OutputConfigRepository,
  Page,
  PageRequest,
  PasskeyRecord,
  PasskeyRepository,
  ProviderKeyRecord,
  ProviderKeyRepository,
  RegisteredToolRecord,
  RequestLogEntry,
  RequestLogPage,
  RequestLogQuery,
  RequestLogRepository,
  ResponseRepository,
  SettingsRepository,
  SloRecord,
  SloRepository,
  SloWindowStats,
  StoredResponseRecord,
  ToolArgumentRule,
  ToolGovernanceRepository,
  ToolPolicyRecord,
  TrafficFigures,
  TrafficFilter,
  TrafficRepository,
  UsageRepository,
  WorkloadFigures,
  HeadToHead,
  JudgedFigures,
  LearnedRuling,
  NewShadowVerdict,
  ServedRoute,
  ShadowVerdictRepository,
  VerdictFilter,
} from './repositories/index.js';
export type * from './types.js';

export { createDb } from './create-db.js';
export type { CreateDbOptions, Database, DatabaseKind } from './database.js';
export { DbConflictError } from './errors.js';
export { defaultMigrationsFolder } from './migrate.js';
export { isUuid } from './repositories/drizzle.js';
export type {
  DashboardBucket,
  DashboardRole,
  DashboardUsageFigures,
  DashboardUsagePoint,
  DashboardUsageQuery,
  DashboardUsageRepository,
  DashboardUserRecord,
  DashboardUserRepository,
  DecisionRepository,
  KeyRepository,
  MemoryEntityRecord,
  MemoryListOptions,
  MemoryRecord,
  MemoryRepository,
  NewDashboardUser,
  NewMemory,
  NewPasskey,
  OrgRepository,
  PasskeyRecord,
  PasskeyRepository,
  ProviderKeyRecord,
  ProviderKeyRepository,
  NewProviderKey,
  NewRegisteredTool,
  NewToolPolicy,
  RegisteredToolRecord,
  SettingsRepository,
  ToolArgumentRule,
  ToolGovernanceRepository,
  ToolPolicyRecord,
  DailyModelFigures,
  TrafficFigures,
  TrafficFilter,
  TrafficRepository,
  WorkloadFigures,
  UsageRepository,
} from './repositories/index.js';
export type * from './types.js';

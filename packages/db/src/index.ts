export { createDb } from './create-db.js';
export type { CreateDbOptions, Database, DatabaseKind } from './database.js';
export { DbConflictError } from './errors.js';
export { defaultMigrationsFolder } from './migrate.js';
export { derivedOnboardingSteps } from './repositories/index.js';
export type {
  AlertListOptions,
  AlertRecord,
  AlertRepository,
  AlertStatus,
  DecisionRepository,
  DerivedOnboardingStep,
  NewAlert,
  NewSlo,
  OnboardingCompletion,
  OnboardingRepository,
  OnboardingSource,
  OutputConfigRecord,
  OutputConfigRepository,
  SloRecord,
  SloRepository,
  SloWindowStats,
  KeyRepository,
  MemoryEntityRecord,
  MemoryListOptions,
  MemoryRecord,
  MemoryRepository,
  NewMemory,
  OrgRepository,
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
  UsageRepository,
} from './repositories/index.js';
export type * from './types.js';

import { createDashboardUsageRepository } from './dashboard-usage.js';
import { createDashboardUserRepository } from './dashboard-users.js';
import { createAlertRepository } from './alerts.js';
import { createBatchRepository } from './batches.js';
import { createDecisionRepository } from './decisions.js';
import type { Drizzle } from './drizzle.js';
import { createFeedbackRepository } from './feedback.js';
import { createFileRepository } from './files.js';
import { createKeyRepository } from './keys.js';
import { createLegacyMemoryRepository } from './legacy-memories.js';
import { createMcpServerRepository } from './mcp-servers.js';
import { createMemoryRepository } from './memories.js';
import { createOnboardingRepository } from './onboarding.js';
import { createOrgRepository } from './orgs.js';
import { createPasskeyRepository } from './passkeys.js';
import { createOutputConfigRepository } from './output-configs.js';
import { createProviderKeyRepository } from './provider-keys.js';
import { createRequestLogRepository } from './request-log.js';
import { createSettingsRepository } from './settings.js';
import { createShadowVerdictRepository } from './shadow-verdicts.js';
import { createSloRepository } from './slos.js';
import { createStoredModelRepository } from './stored-models.js';
import { createStoreIdentityRepository } from './store-identity.js';
import { createResponseRepository } from './stored-responses.js';
import { createToolGovernanceRepository } from './tool-governance.js';
import { createTrafficRepository } from './traffic.js';
import { createUsageRepository } from './usage.js';

export function createRepositories(db: Drizzle) {
  return {
    orgs: createOrgRepository(db),
    keys: createKeyRepository(db),
    settings: createSettingsRepository(db),
    usage: createUsageRepository(db),
    decisions: createDecisionRepository(db),
    feedback: createFeedbackRepository(db),
    toolGovernance: createToolGovernanceRepository(db),
    providerKeys: createProviderKeyRepository(db),
    mcpServers: createMcpServerRepository(db),
    memories: createMemoryRepository(db),
    legacyMemories: createLegacyMemoryRepository(db),
    dashboardUsers: createDashboardUserRepository(db),
    passkeys: createPasskeyRepository(db),
    dashboard: createDashboardUsageRepository(db),
    traffic: createTrafficRepository(db),
    requestLog: createRequestLogRepository(db),
    slos: createSloRepository(db),
    alerts: createAlertRepository(db),
    outputConfigs: createOutputConfigRepository(db),
    onboarding: createOnboardingRepository(db),
    responses: createResponseRepository(db),
    files: createFileRepository(db),
    batches: createBatchRepository(db),
    shadowVerdicts: createShadowVerdictRepository(db),
    storedModels: createStoredModelRepository(db),
    storeIdentity: createStoreIdentityRepository(db),
  };
}

/** Every repository of the store, by the name the Database exposes it under. */
export type Repositories = ReturnType<typeof createRepositories>;

export type {
  DashboardBucket,
  DashboardUsageFigures,
  DashboardUsagePoint,
  DashboardUsageQuery,
  DashboardUsageRepository,
} from './dashboard-usage.js';
export type { DashboardRole, DashboardUserPatch, DashboardUserRecord, DashboardUserRepository, NewDashboardUser } from './dashboard-users.js';
export type { Page, PageRequest } from './keyset-page.js';
export type { NewPasskey, PasskeyRecord, PasskeyRepository } from './passkeys.js';

export type { AnsweredBatchLine, BatchLineRecord, BatchPatch, BatchRecord, BatchRepository, NewBatch } from './batches.js';
export type { BatchStatus } from './batch-statuses.js';
export type { FileCompletion, FileListOptions, FileRecord, FileRepository, FileToWrite, NewFile } from './files.js';
export type { AlertListOptions, AlertRecord, AlertRepository, AlertStatus, NewAlert } from './alerts.js';
export type { DecisionRepository } from './decisions.js';
export type { KeyRepository } from './keys.js';
export type { MemoryEntityRecord, MemoryListOptions, MemoryRecord, MemoryRepository, NewMemoryRow } from './memories.js';
export type { OnboardingCompletion, OnboardingRepository, OnboardingSource } from './onboarding.js';
export type { DerivedOnboardingStep } from './onboarding-steps.js';
export type { OrgRepository } from './orgs.js';
export type { OutputConfigRecord, OutputConfigRepository } from './output-configs.js';
export type { McpServerCredential, McpServerRecord, McpServerRepository, NewMcpServer } from './mcp-servers.js';
export type { NewProviderKey, ProviderKeyRecord, ProviderKeyRepository } from './provider-keys.js';
export type { SettingsRepository } from './settings.js';
export type { HeadToHead, JudgedFigures, LearnedRuling, NewShadowVerdict, ServedRoute, ShadowVerdictRepository, VerdictFilter } from './shadow-verdicts.js';
export type { StoredModelRecord, StoredModelRepository } from './stored-models.js';
export type { StoreIdentityRepository } from './store-identity.js';
export type { ResponseRepository, StoredResponseRecord } from './stored-responses.js';
export type { FeedbackRecord, FeedbackRepository, FeedbackResult, NewFeedback } from './feedback.js';
export type { LegacyMemoryListOptions, LegacyMemoryRecord, LegacyMemoryRepository } from './legacy-memories.js';
export type { NewSlo, SloRecord, SloRepository, SloWindowStats } from './slos.js';
export type {
  NewRegisteredTool,
  NewToolPolicy,
  RegisteredToolRecord,
  ToolArgumentRule,
  ToolGovernanceRepository,
  ToolPolicyRecord,
} from './tool-governance.js';
export type { RequestLogEntry, RequestLogPage, RequestLogQuery, RequestLogRepository } from './request-log.js';
export type { CostFigures, DailyModelFigures, TrafficFigures, TrafficFilter, TrafficRepository, WorkloadFigures } from './traffic.js';
export type { UsageRepository } from './usage.js';

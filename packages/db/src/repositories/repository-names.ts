// Plain data without drizzle-orm, for the store thread's main-thread side: packages/db/src/index.ts says why.
// The type import is erased at run time: it only lets the compiler check the names.
import type { Repositories } from './index.js';

/** The names of the store's repositories (`Repositories`; thread/store-thread.test.ts keeps them equal), for code that reaches them by name. */
export const REPOSITORY_NAMES = [
  'orgs',
  'keys',
  'settings',
  'usage',
  'decisions',
  'toolGovernance',
  'providerKeys',
  'mcpServers',
  'memories',
  'legacyMemories',
  'dashboardUsers',
  'passkeys',
  'dashboard',
  'traffic',
  'requestLog',
  'slos',
  'alerts',
  'outputConfigs',
  'onboarding',
  'responses',
  'files',
  'batches',
  'feedback',
  'shadowVerdicts',
  'storedModels',
  'storeIdentity',
] as const satisfies readonly (keyof Repositories)[];

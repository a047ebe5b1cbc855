// Plain data, without drizzle-orm: the store thread's main-thread side reaches the repositories by
// name, and the gateway's main thread loads no repository (docs/operations.md "Memory budget").

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
] as const;

export { loadConfigFile, type ConfigFile } from './runtime/config-file.js';
export { ConfigError, envProviders, isEnvVariable, parseEnv, type Env, type EnvProvider, type ProviderEnv } from './runtime/env.js';
export { probe, summarise } from './runtime/readiness.js';
export { createRuntime, type Runtime, type RuntimeOptions } from './runtime/runtime.js';
export { providerConfig } from './runtime/provider-config.js';
export type { CacheService } from './runtime/cache.js';
export { type DatabaseOpener, openDatabase } from './runtime/open-database.js';
export { listen, shutdown, type FetchApp, type Listening } from './serve.js';
export { start, type Role, type Started } from './start.js';

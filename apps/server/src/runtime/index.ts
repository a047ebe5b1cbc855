export { loadConfigFile, type ConfigFile } from './config-file.js';
export { ConfigError, envProviders, isEnvVariable, parseEnv, type Env, type EnvProvider, type ProviderEnv } from './env.js';
export { probe, summarise, type DependencyStatus, type Readiness } from './readiness.js';
export type { ReportSettings } from './report-settings.js';
export { createRuntime, type Runtime, type RuntimeOptions } from './runtime.js';
export { providerConfig } from './provider-config.js';
export type { CacheService, CacheStatsWire } from './cache.js';
export { type DatabaseOpener, openDatabase } from './open-database.js';

import type { Catalog, ModelInfo } from '@svc/catalog';
import type { Kv } from '@svc/kv';
import { type ProviderRegistry, type ProviderRegistryConfig, type UndiciHttpClient, createProviderRegistry, createUndiciHttpClient } from '@svc/providers';
import { KeyCooldowns } from '@svc/resilience';
import type { Logger } from '@svc/telemetry';
import type { ConfigFile } from './config-file.js';
import { configuredCatalog } from './config-models.js';
import { ConfigError, type Env } from './env.js';

/** The provider registry of the configuration, and the catalog of its models. */
export interface ProviderWiring {
  providers: ProviderRegistry;
  /** Models of configured providers only. */
  catalog: Catalog;
  /** The keep-alive pool of every provider call; undefined when a fetch was injected. Closed with the runtime. */
  http: UndiciHttpClient | undefined;
}

/**
 * Builds the provider registry from `config` (`providerConfig`): one keep-alive connection pool
 * per runtime (or the injected fetch) and key cooldowns over the kv. A configuration the registry
 * refuses is a ConfigError naming SVC_CONFIG or the provider configuration. The catalog holds the
 * configured providers' models, SVC_CONFIG `models:` applied.
 */
export function wireProviders(
  env: Env,
  config: ProviderRegistryConfig,
  shared: { kv: Kv; kvNamespace: string; logger: Logger; fetch?: typeof globalThis.fetch | undefined; file?: ConfigFile | undefined; discovered?: readonly ModelInfo[] },
): ProviderWiring {
  const http = shared.fetch ? undefined : createUndiciHttpClient({ connectTimeoutMs: env.SVC_CONNECT_TIMEOUT_MS });
  if (shared.fetch) config.fetch = shared.fetch;
  else config.http = http;
  // Keys that keep failing (401/402/429) cool down for a minute on every instance of the deployment
  // (its keys are numbered by their place in its own configuration: another deployment's key #0 is another key).
  config.keyCooldowns = new KeyCooldowns({ kv: shared.kv, keyPrefix: `${shared.kvNamespace}keycool:`, onError: (error) => shared.logger.warn({ err: error }, 'key cooldown state unavailable') });
  let providers: ProviderRegistry;
  try {
    providers = createProviderRegistry(config);
  } catch (error) {
    throw new ConfigError(env.SVC_CONFIG ? 'SVC_CONFIG' : 'provider configuration', (error as Error).message);
  }
  return { providers, catalog: configuredCatalog(new Set(providers.ids()), shared.file, shared.discovered), http };
}

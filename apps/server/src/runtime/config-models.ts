import { type Catalog, type ModelDefaults, type ModelEntry, type ModelFields, type ModelInfo, type ModelOverride, createCatalog, modelOverrides, toModelDefaults } from '@svc/catalog';
import type { ProviderRegistry } from '@svc/providers';
import type { PassThroughOptions } from '@svc/router';
import { ConfigError } from './env.js';

/** Each configured provider's model defaults (SVC_CONFIG `providers.<id>.model_defaults`). */
export function providerModelDefaults(providers: Readonly<Record<string, { model_defaults?: ModelFields | undefined }>> | undefined): Record<string, ModelDefaults> {
  const out: Record<string, ModelDefaults> = {};
  for (const [id, entry] of Object.entries(providers ?? {})) if (entry.model_defaults) out[id] = toModelDefaults(entry.model_defaults);
  return out;
}

/**
 * Which explicit `<provider>/<model>` names the router forwards when the catalog does not list
 * them: every configured provider's but the built-in mock's (it answers any name, so a typo would
 * look like an answer), priced from `model_defaults`; for a provider only an organisation's own
 * key configures, the built-in catalog's entry when it lists the name.
 */
export function passThroughOptions(providers: ProviderRegistry, file: { providers?: Parameters<typeof providerModelDefaults>[0] } | undefined): PassThroughOptions {
  const ids = new Set(providers.ids());
  ids.delete('mock');
  return { providers: ids, defaults: providerModelDefaults(file?.providers), unconfigured: createCatalog() };
}

/** What a gateway's catalog is built from, besides the built-in models. */
export interface CatalogSources {
  /** Providers with a key configured: only their models are served. */
  enabled: ReadonlySet<string>;
  file: { providers?: Parameters<typeof providerModelDefaults>[0]; models?: readonly ModelEntry[] | undefined } | undefined;
  /** Models found on OpenAI-compatible providers' `GET /models`. */
  discovered?: readonly ModelInfo[];
  /** Entries stored through the admin API (`/v1/admin/models`): applied last, over the configuration. */
  stored?: readonly ModelEntry[];
}

/** A new model (not an override) whose provider is not configured, as a sentence naming where it came from. */
function strayProvider(overrides: readonly ModelOverride[], known: Pick<Catalog, 'get'>, enabled: ReadonlySet<string>): string | undefined {
  const stray = overrides.find((override) => !known.get(override.id) && !enabled.has(override.provider ?? ''));
  return stray && `'${stray.id}' names provider '${stray.provider}', which is not configured (add it under providers: with its api_keys and base_url)`;
}

/**
 * The catalog of this gateway: the built-in models with the `discovered` ones, SVC_CONFIG
 * `models:` and then the stored entries applied, of the `enabled` (configured) providers only.
 * Throws an Error naming the first bad entry, or a new model of a provider that is not configured.
 */
export function buildCatalog({ enabled, file, discovered = [], stored = [] }: CatalogSources): Catalog {
  const all = createCatalog();
  const defaults = providerModelDefaults(file?.providers);
  const configured = modelOverrides(file?.models, all, defaults);
  // Discovered models add what neither the catalog nor the configuration describes; a configured entry wins.
  const overrides = [...discovered.filter((model) => !all.get(model.id) && !configured.some((entry) => entry.id === model.id)), ...configured];
  const strayConfigured = strayProvider(overrides, all, enabled);
  if (strayConfigured) throw new Error(strayConfigured);
  const withConfig = all.withOverrides(overrides);
  if (stored.length === 0) return withConfig.forProviders(enabled);
  const storedOverrides = modelOverrides(stored, withConfig, defaults, 'stored');
  const strayStored = strayProvider(storedOverrides, withConfig, enabled);
  if (strayStored) throw new Error(strayStored);
  return withConfig.withOverrides(storedOverrides).forProviders(enabled);
}

/** `buildCatalog` at start, without stored entries: a bad SVC_CONFIG entry is a ConfigError naming it. */
export function configuredCatalog(enabled: ReadonlySet<string>, file: CatalogSources['file'], discovered: readonly ModelInfo[] = []): Catalog {
  try {
    return buildCatalog({ enabled, file, discovered });
  } catch (error) {
    throw new ConfigError('SVC_CONFIG', `models: ${(error as Error).message}`);
  }
}

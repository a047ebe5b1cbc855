import type { LiveCatalog, ModelInfo } from '@svc/catalog';
import type { CompatibleProviderConfig, ProviderRegistry } from '@svc/providers';
import type { ConfigFile } from './config-file.js';
import { buildCatalog, providerModelDefaults } from './config-models.js';
import { type Discovery, discoverModels } from './discovery.js';
import { ModelStore } from './model-store.js';
import type { RuntimeBase } from './runtime-base.js';

/** What the model store is wired from: the start's catalog (made live) and discovery, and how to read the providers' lists again. */
export interface ModelWiring {
  live: LiveCatalog;
  providers: ProviderRegistry;
  file: ConfigFile | undefined;
  compatible: readonly CompatibleProviderConfig[];
  discovery: Discovery;
  fetch: typeof globalThis.fetch | undefined;
}

/** Longest wait for one provider's model list, at start and on a refresh. */
const discoveryTimeoutMs = 5_000;

/** Reads OpenAI-compatible providers' `GET /models` (start and admin refresh). */
export function discoverer(compatible: readonly CompatibleProviderConfig[], file: ConfigFile | undefined, base: Pick<RuntimeBase, 'logger'> & { fetch: typeof globalThis.fetch | undefined }) {
  const defaults = providerModelDefaults(file?.providers);
  return (previous: readonly ModelInfo[] = []) => discoverModels(compatible, defaults, { fetch: base.fetch ?? globalThis.fetch, logger: base.logger, timeoutMs: discoveryTimeoutMs }, previous);
}

/** The stored models (admin API) over the live catalog, loaded before the gateway serves and kept in step with the other instances. */
export async function startModelStore(base: RuntimeBase, wiring: ModelWiring): Promise<ModelStore> {
  const enabled = new Set(wiring.providers.ids());
  const store = new ModelStore({
    db: base.db,
    kv: base.kv,
    live: wiring.live,
    build: (stored, discovered) => buildCatalog({ enabled, file: wiring.file, discovered, stored }),
    discover: discoverer(wiring.compatible, wiring.file, { logger: base.logger, fetch: wiring.fetch }),
    discovered: wiring.discovery,
    logger: base.logger,
  });
  await store.start();
  return store;
}

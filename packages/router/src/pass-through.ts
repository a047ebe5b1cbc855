import { type Catalog, type ModelDefaults, type ModelInfo, modelFromDefaults } from '@svc/catalog';
import { modelNotFound } from '@svc/core';

/** Explicit `<provider>/<model>` names the catalog does not know, forwarded as named to a configured provider. */
export interface PassThroughOptions {
  /** Providers configured on this gateway: only their names pass through. */
  providers: ReadonlySet<string>;
  /** Per-provider defaults (prices, limits, capabilities); a provider without token prices serves its unknown models unpriced. */
  defaults?: Readonly<Record<string, ModelDefaults>>;
  /** Models of providers the gateway does not configure (the built-in catalog): what an organisation's own key for one of them serves at its listed prices. */
  unconfigured?: Pick<Catalog, 'get'>;
}

/** Entries built for names clients sent, kept so a repeated name allocates nothing; cleared when full (clients choose the names). */
const maxRemembered = 512;

/**
 * The entry of a name the catalog does not know: `<provider>/<model>` of a configured provider
 * (or of one in `own`, the organisation's own keys) becomes a `passthrough` chat model whose
 * upstream id is exactly `<model>` (for an own-key provider, the built-in catalog's entry when it
 * lists the name); anything else is undefined. Entries are remembered (at most 512 names each for
 * configured and own-key providers) so a name asked again is a Map hit.
 */
export function createPassThrough(options: PassThroughOptions): PassThrough {
  const remembered = new Map<string, ModelInfo>();
  // Names served with an organisation's own key: kept apart, so `seen` (GET /v1/models, every tenant) never lists them.
  const ownRemembered = new Map<string, ModelInfo>();
  const resolve = (requested: string, own?: ReadonlySet<string>): ModelInfo | undefined => {
    const slash = requested.indexOf('/');
    if (slash <= 0 || slash === requested.length - 1) return undefined;
    const provider = requested.slice(0, slash);
    const configured = options.providers.has(provider);
    if (!configured && own?.has(provider) !== true) return undefined;
    const names = configured ? remembered : ownRemembered;
    const known = names.get(requested);
    if (known) return known;
    const model = (!configured && options.unconfigured?.get(requested)) || modelFromDefaults(provider, requested.slice(slash + 1), options.defaults?.[provider], 'passthrough');
    if (names.size >= maxRemembered) names.clear();
    names.set(requested, model);
    return model;
  };
  return { resolve, seen: () => [...remembered.values()] };
}

/** Names forwarded as named: the entry of one, and those built so far. */
export interface PassThrough {
  /** The `passthrough` entry of `<provider>/<model>` for a configured provider or one of `own`; undefined for any other name. */
  resolve(requested: string, own?: ReadonlySet<string>): ModelInfo | undefined;
  /** The entries built so far on this instance (at most 512; cleared when full), for `GET /v1/models`. */
  seen(): readonly ModelInfo[];
}

/** The refusal of a passed-through name for an organisation that turned pass-through off. */
export function passThroughOff(requested: string, param: string): Error {
  return modelNotFound(
    `The model '${requested}' is not in this gateway's catalog, and your organisation does not forward unlisted models (pass_through_models is off). GET /v1/models lists the available models.`,
    param,
  );
}

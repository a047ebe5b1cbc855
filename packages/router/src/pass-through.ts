import { type ModelDefaults, type ModelInfo, modelFromDefaults } from '@svc/catalog';
import { modelNotFound } from '@svc/core';

/** Explicit `<provider>/<model>` names the catalog does not know, forwarded as named to a configured provider. */
export interface PassThroughOptions {
  /** Providers configured on this gateway: only their names pass through. */
  providers: ReadonlySet<string>;
  /** Per-provider defaults (prices, limits, capabilities); a provider without token prices serves its unknown models unpriced. */
  defaults?: Readonly<Record<string, ModelDefaults>>;
}

/** Entries built for names clients sent, kept so a repeated name allocates nothing; cleared when full (clients choose the names). */
const maxRemembered = 512;

/**
 * The entry of a name the catalog does not know: `<provider>/<model>` of a configured provider
 * becomes a `passthrough` chat model whose upstream id is exactly `<model>`; anything else is
 * undefined. Entries are remembered (at most 512 names) so a name asked again is a Map hit.
 */
export function createPassThrough(options: PassThroughOptions): PassThrough {
  const remembered = new Map<string, ModelInfo>();
  const resolve = (requested: string): ModelInfo | undefined => {
    const known = remembered.get(requested);
    if (known) return known;
    const slash = requested.indexOf('/');
    if (slash <= 0 || slash === requested.length - 1) return undefined;
    const provider = requested.slice(0, slash);
    if (!options.providers.has(provider)) return undefined;
    const model = modelFromDefaults(provider, requested.slice(slash + 1), options.defaults?.[provider], 'passthrough');
    if (remembered.size >= maxRemembered) remembered.clear();
    remembered.set(requested, model);
    return model;
  };
  return { resolve, seen: () => [...remembered.values()] };
}

/** Names forwarded as named: the entry of one, and those built so far. */
export interface PassThrough {
  /** The `passthrough` entry of `<provider>/<model>` for a configured provider; undefined for any other name. */
  resolve(requested: string): ModelInfo | undefined;
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

import { type Capability, type Catalog, type ModelDefaults, type ModelInfo, type ModelOverride, createCatalog, modelFromDefaults, modelKinds } from '@svc/catalog';
import type { ProviderRegistry } from '@svc/providers';
import type { PassThroughOptions } from '@svc/router';
import * as v from 'valibot';
import { ConfigError } from './env.js';

const price = v.pipe(v.number('a price is a number (USD)'), v.finite(), v.minValue(0, 'a price is not negative'));
const positiveInteger = (what: string) => v.pipe(v.number(`${what} is a number`), v.integer(`${what} is a whole number`), v.minValue(1, `${what} is positive`));
const capabilityList: readonly Capability[] = ['tools', 'vision', 'json', 'reasoning', 'audio'];

/** Fields describing a model, in SVC_CONFIG's snake_case; shared by `model_defaults` and `models:`. Prices are USD per million tokens. */
export const modelFields = {
  input_price_per_mtok: v.optional(price),
  output_price_per_mtok: v.optional(price),
  cached_input_price_per_mtok: v.optional(price),
  context_window: v.optional(positiveInteger('context_window')),
  max_output_tokens: v.optional(positiveInteger('max_output_tokens')),
  capabilities: v.optional(v.array(v.picklist(capabilityList, `capabilities are ${capabilityList.join(', ')}`))),
  tier: v.optional(v.picklist(['T1', 'T2', 'T3'] as const, 'tier is T1, T2 or T3')),
  quality_prior: v.optional(v.pipe(v.number(), v.minValue(0, 'quality_prior is within 0..1'), v.maxValue(1, 'quality_prior is within 0..1'))),
  open_weight: v.optional(v.boolean('open_weight is true or false')),
};

/**
 * `providers.<id>.model_defaults`: what the gateway assumes of this provider's models the catalog
 * does not list (passed through or discovered). Without both token prices they are unpriced.
 */
export const modelDefaultsSchema = v.strictObject(modelFields);

type ModelFields = v.InferOutput<typeof modelDefaultsSchema>;

/** The catalog's `ModelDefaults` from the config's snake_case fields (only those given). */
export function toModelDefaults(fields: ModelFields): ModelDefaults {
  const out: ModelDefaults = {};
  if (fields.input_price_per_mtok !== undefined) out.inputPricePerMTok = fields.input_price_per_mtok;
  if (fields.output_price_per_mtok !== undefined) out.outputPricePerMTok = fields.output_price_per_mtok;
  if (fields.cached_input_price_per_mtok !== undefined) out.cachedInputPricePerMTok = fields.cached_input_price_per_mtok;
  if (fields.context_window !== undefined) out.contextWindow = fields.context_window;
  if (fields.max_output_tokens !== undefined) out.maxOutputTokens = fields.max_output_tokens;
  if (fields.capabilities !== undefined) out.capabilities = fields.capabilities;
  if (fields.tier !== undefined) out.tier = fields.tier;
  if (fields.quality_prior !== undefined) out.qualityPrior = fields.quality_prior;
  if (fields.open_weight !== undefined) out.openWeight = fields.open_weight;
  return out;
}

/** Each configured provider's model defaults (SVC_CONFIG `providers.<id>.model_defaults`). */
export function providerModelDefaults(providers: Readonly<Record<string, { model_defaults?: ModelFields | undefined }>> | undefined): Record<string, ModelDefaults> {
  const out: Record<string, ModelDefaults> = {};
  for (const [id, entry] of Object.entries(providers ?? {})) if (entry.model_defaults) out[id] = toModelDefaults(entry.model_defaults);
  return out;
}

/**
 * Which explicit `<provider>/<model>` names the router forwards when the catalog does not list
 * them: every configured provider's but the built-in mock's (it answers any name, so a typo would
 * look like an answer), priced from `model_defaults`.
 */
export function passThroughOptions(providers: ProviderRegistry, file: { providers?: Parameters<typeof providerModelDefaults>[0] } | undefined): PassThroughOptions {
  const ids = new Set(providers.ids());
  ids.delete('mock');
  return { providers: ids, defaults: providerModelDefaults(file?.providers) };
}

const unitPriceFields = {
  cache_write_price_per_mtok: v.optional(price),
  /** Image models: USD per image by `<size>` or `<quality>:<size>` (`default` for any other size). */
  price_per_image: v.optional(v.record(v.string(), price)),
  /** Audio models: USD per minute of audio. */
  price_per_minute: v.optional(price),
};

/**
 * One entry of SVC_CONFIG `models:`: a model to add (an id the catalog does not list:
 * `<provider>/<model>`, the rest defaulting from the provider's `model_defaults`) or the fields of
 * a catalog entry to change (its price, limits, prior...). Unknown keys and bad values stop the start.
 */
export const modelEntrySchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]*\/\S+$/, 'a model id is <provider>/<model>, the provider in lowercase')),
  /** What the provider's API is sent; default the id after `<provider>/`. */
  upstream_id: v.optional(v.pipe(v.string(), v.minLength(1))),
  kind: v.optional(v.picklist(modelKinds, `kind is one of ${modelKinds.join(', ')}`)),
  /** Models of one family are the same weights on different providers (fallback); default the id. */
  family: v.optional(v.pipe(v.string(), v.minLength(1))),
  ...modelFields,
  ...unitPriceFields,
  /** Embedding models: vector dimensions. */
  dimensions: v.optional(positiveInteger('dimensions')),
  /** False: served only when named, never chosen by an alias. */
  routable: v.optional(v.boolean('routable is true or false')),
  /** The models tried, in order, once this one and its same-family siblings failed (a request's own `models` list replaces them). */
  fallbacks: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1)), 'fallbacks is a list of model slugs'), v.maxLength(8, 'at most 8 fallbacks per model'))),
});

export type ModelEntry = v.InferOutput<typeof modelEntrySchema>;

/** The catalog fields an entry sets, camelCased; only those given. */
function entryFields(entry: ModelEntry): Partial<ModelInfo> {
  const d = toModelDefaults(entry);
  const out: Partial<ModelInfo> = { ...d, ...(d.capabilities ? { capabilities: [...d.capabilities] } : {}) };
  delete (out as ModelDefaults).openWeight;
  if (d.openWeight !== undefined) Object.assign(out, { openWeight: d.openWeight, free: d.openWeight });
  if (entry.upstream_id !== undefined) out.upstreamId = entry.upstream_id;
  if (entry.kind !== undefined) out.kind = entry.kind;
  if (entry.family !== undefined) out.family = entry.family;
  if (entry.cache_write_price_per_mtok !== undefined) out.cacheWritePricePerMTok = entry.cache_write_price_per_mtok;
  if (entry.price_per_image !== undefined || entry.price_per_minute !== undefined) {
    out.unitPrices = { ...(entry.price_per_image ? { perImage: entry.price_per_image } : {}), ...(entry.price_per_minute === undefined ? {} : { perMinute: entry.price_per_minute }) };
  }
  if (entry.dimensions !== undefined) out.dimensions = entry.dimensions;
  if (entry.routable !== undefined) out.routable = entry.routable;
  return out;
}

/**
 * SVC_CONFIG `models:` as catalog overrides: an id `base` lists changes only the fields given;
 * any other id is a whole new model, built from its provider's `model_defaults` and the entry
 * (source `config`; unpriced without both token prices). Validated when the catalog is built.
 */
export function modelOverrides(entries: readonly ModelEntry[] | undefined, base: Catalog, defaults: Readonly<Record<string, ModelDefaults>>): ModelOverride[] {
  return (entries ?? []).map((entry) => {
    const fields = entryFields(entry);
    if (base.get(entry.id)) return { id: entry.id, ...fields };
    const slash = entry.id.indexOf('/');
    const provider = entry.id.slice(0, slash);
    const upstreamId = entry.upstream_id ?? entry.id.slice(slash + 1);
    const model: ModelInfo = { ...modelFromDefaults(provider, upstreamId, { ...defaults[provider], ...toModelDefaults(entry) }, 'config'), ...fields, id: entry.id };
    if (model.kind !== 'chat') model.maxOutputTokens = entry.max_output_tokens ?? 0;
    return model;
  });
}

/**
 * The catalog of this gateway: the built-in models with the `discovered` ones and SVC_CONFIG
 * `models:` applied, of the `enabled` (configured) providers only. A bad entry, or a new model of a provider that is not configured,
 * is a ConfigError naming SVC_CONFIG.
 */
export function configuredCatalog(
  enabled: ReadonlySet<string>,
  file: { providers?: Parameters<typeof providerModelDefaults>[0]; models?: readonly ModelEntry[] | undefined } | undefined,
  discovered: readonly ModelInfo[] = [],
): Catalog {
  const all = createCatalog();
  const configured = modelOverrides(file?.models, all, providerModelDefaults(file?.providers));
  // Discovered models add what neither the catalog nor the configuration describes; a configured entry wins.
  const overrides = [...discovered.filter((model) => !all.get(model.id) && !configured.some((entry) => entry.id === model.id)), ...configured];
  const stray = overrides.find((override) => !all.get(override.id) && !enabled.has(override.provider ?? ''));
  if (stray) throw new ConfigError('SVC_CONFIG', `models: '${stray.id}' names provider '${stray.provider}', which is not configured (add it under providers: with its api_keys and base_url)`);
  try {
    return all.withOverrides(overrides).forProviders(enabled);
  } catch (error) {
    throw new ConfigError('SVC_CONFIG', `models: ${(error as Error).message}`);
  }
}

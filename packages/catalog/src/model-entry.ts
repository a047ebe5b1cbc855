import * as v from 'valibot';
import { type ModelDefaults, modelFromDefaults } from './defaults.js';
import type { Catalog } from './catalog.js';
import { type Capability, type ModelInfo, type ModelSource, modelKinds } from './model.js';
import type { ModelOverride } from './overrides.js';

const price = v.pipe(v.number('a price is a number (USD)'), v.finite(), v.minValue(0, 'a price is not negative'));
const positiveInteger = (what: string) => v.pipe(v.number(`${what} is a number`), v.integer(`${what} is a whole number`), v.minValue(1, `${what} is positive`));
const capabilityList: readonly Capability[] = ['tools', 'vision', 'json', 'reasoning', 'audio'];

/** An ISO 8601 date (`2026-06-30`) or time with its offset. */
const isoDate = (what: string) =>
  v.pipe(
    v.string(`${what} is an ISO 8601 date`),
    v.regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/, `${what} is an ISO 8601 date (2026-06-30) or time with its offset (2026-06-30T00:00:00Z)`),
    v.check((value) => !Number.isNaN(Date.parse(value)), `${what} is not a calendar date`),
  );

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

export type ModelFields = v.InferOutput<typeof modelDefaultsSchema>;

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
  /** The share of the token prices the provider's batch API charges (0.5: half); default the provider's published share. */
  batch_price_factor: v.optional(v.pipe(v.number('batch_price_factor is a number'), v.gtValue(0, 'batch_price_factor is within (0, 1]'), v.maxValue(1, 'batch_price_factor is within (0, 1]'))),
  /** Embedding models: vector dimensions. */
  dimensions: v.optional(positiveInteger('dimensions')),
  /** False: served only when named, never chosen by an alias. */
  routable: v.optional(v.boolean('routable is true or false')),
  /** Joins the `svc/auto-safety` pool (true) or leaves it (false). */
  safety_critical: v.optional(v.boolean('safety_critical is true or false')),
  /** When the provider stops serving the model: past it, no alias picks it and naming it is refused; before it, answers carry Deprecation and Sunset headers. */
  retires_at: v.optional(isoDate('retires_at')),
  /** When the retirement was announced: the `Deprecation` header's date (default: the current day). */
  deprecated_at: v.optional(isoDate('deprecated_at')),
  /** The model to use instead once this one retires (a slug). */
  replacement: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]*\/\S+$/, 'replacement is a model id, <provider>/<model>'))),
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
  if (entry.batch_price_factor !== undefined) out.batchPriceFactor = entry.batch_price_factor;
  if (entry.dimensions !== undefined) out.dimensions = entry.dimensions;
  if (entry.routable !== undefined) out.routable = entry.routable;
  if (entry.safety_critical !== undefined) out.safetyCritical = entry.safety_critical;
  if (entry.retires_at !== undefined) out.retiresAt = new Date(entry.retires_at).toISOString();
  if (entry.deprecated_at !== undefined) out.deprecatedAt = new Date(entry.deprecated_at).toISOString();
  if (entry.replacement !== undefined) out.replacement = entry.replacement;
  return out;
}

/**
 * Model entries (SVC_CONFIG `models:`, or those stored through the admin API) as catalog
 * overrides: an id `base` lists changes only the fields given; any other id is a whole new model,
 * built from its provider's `model_defaults` and the entry (`source`, default `config`; unpriced
 * without both token prices). Validated when the catalog is built.
 */
export function modelOverrides(
  entries: readonly ModelEntry[] | undefined,
  base: Pick<Catalog, 'get'>,
  defaults: Readonly<Record<string, ModelDefaults>>,
  source: ModelSource = 'config',
): ModelOverride[] {
  return (entries ?? []).map((entry) => {
    const fields = entryFields(entry);
    if (base.get(entry.id)) return { id: entry.id, ...fields };
    const slash = entry.id.indexOf('/');
    const provider = entry.id.slice(0, slash);
    const upstreamId = entry.upstream_id ?? entry.id.slice(slash + 1);
    const model: ModelInfo = { ...modelFromDefaults(provider, upstreamId, { ...defaults[provider], ...toModelDefaults(entry) }, source), ...fields, id: entry.id };
    if (model.kind !== 'chat') model.maxOutputTokens = entry.max_output_tokens ?? 0;
    return model;
  });
}


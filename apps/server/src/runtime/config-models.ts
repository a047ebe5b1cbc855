import type { Capability, ModelDefaults } from '@svc/catalog';
import type { ProviderRegistry } from '@svc/providers';
import type { PassThroughOptions } from '@svc/router';
import * as v from 'valibot';

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

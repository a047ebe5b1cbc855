import type { ModelInfo } from './model.js';

/**
 * OpenAI's published per-token prices of fine-tuned models (inference, not training), USD per
 * million tokens, by the base model's family. Source: openai.com/api/pricing, "Fine-tuning"
 * table (input / cached input / output), as also reported by tokenmix.ai's OpenAI fine-tuning
 * guide (April 2026) for gpt-4o ($3.75/$15) and gpt-4o-mini ($0.30/$1.20); the gpt-4.1 family,
 * o4-mini (reinforcement fine-tuning) and gpt-3.5-turbo rates could not be re-read from
 * OpenAI's page on 2026-12-02 and are the last published ones. A fine-tune of a base not listed
 * here is served unpriced (its tokens are recorded, its cost is reported as unknown).
 */
const fineTunedPrices: Readonly<Record<string, { input: number; cachedInput?: number; output: number }>> = {
  'gpt-4.1': { input: 3, cachedInput: 0.75, output: 12 },
  'gpt-4.1-mini': { input: 0.8, cachedInput: 0.2, output: 3.2 },
  'gpt-4.1-nano': { input: 0.2, cachedInput: 0.05, output: 0.8 },
  'gpt-4o': { input: 3.75, cachedInput: 1.875, output: 15 },
  'gpt-4o-mini': { input: 0.3, cachedInput: 0.15, output: 1.2 },
  'gpt-3.5-turbo': { input: 3, output: 6 },
  'o4-mini': { input: 4, cachedInput: 1, output: 16 },
};

/** `ft:<base>:<organisation>:<suffix>:<id>` (the suffix may be empty), OpenAI's fine-tuned model ids. */
const fineTuneId = /^ft:([^:]+):[^:]*:[^:]*:[^:]+$/;
/** A dated snapshot: `<name>-YYYYMMDD` (Anthropic) or `<name>-YYYY-MM-DD` (OpenAI). */
const snapshotId = /^(.+)-(?:\d{8}|\d{4}-\d{2}-\d{2})$/;

/** Looks a base name up: `<provider>/<name>` when a provider was named, else the bare name. */
type Lookup = (provider: string | undefined, name: string) => ModelInfo | undefined;

/**
 * The entry of a name the catalog holds only through another: an OpenAI fine-tune
 * (`ft:gpt-4o-mini-2024-07-18:acme::abc123`, optionally `openai/`-prefixed) inherits its base's
 * kind, limits, capabilities, tier and prior at OpenAI's fine-tuned prices, under a family of its
 * own (its weights live only there) and never chosen by an alias; a dated snapshot
 * (`claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`) is its family's entry under its own id.
 * Either way the upstream receives exactly the name the client gave. Undefined otherwise.
 */
export function variantOf(requested: string, lookup: Lookup): ModelInfo | undefined {
  const slash = requested.indexOf('/');
  const provider = slash > 0 ? requested.slice(0, slash) : undefined;
  const name = slash > 0 ? requested.slice(slash + 1) : requested;
  const tuned = fineTuneId.exec(name);
  if (tuned) return fineTuneOf(name, baseOf(provider ?? 'openai', tuned[1]!, lookup));
  const dated = snapshotId.exec(name);
  const base = dated ? lookup(provider, dated[1]!) : undefined;
  if (!base || base.provider === 'mock') return undefined;
  return Object.freeze({ ...base, id: `${base.provider}/${name}`, upstreamId: name, routable: false });
}

/** A fine-tune's base: the named model, or its snapshot's family entry. */
function baseOf(provider: string, base: string, lookup: Lookup): ModelInfo | undefined {
  return lookup(provider, base) ?? variantOf(`${provider}/${base}`, lookup);
}

function fineTuneOf(name: string, base: ModelInfo | undefined): ModelInfo | undefined {
  if (base?.provider !== 'openai' || base.kind !== 'chat') return undefined;
  const prices = fineTunedPrices[base.family];
  const id = `${base.provider}/${name}`;
  const { cachedInputPricePerMTok: _cached, cacheWritePricePerMTok: _written, ...inherited } = base;
  const model: ModelInfo = { ...inherited, id, upstreamId: name, family: id, routable: false, free: false };
  if (prices) {
    model.inputPricePerMTok = prices.input;
    model.outputPricePerMTok = prices.output;
    if (prices.cachedInput !== undefined) model.cachedInputPricePerMTok = prices.cachedInput;
  } else {
    Object.assign(model, { inputPricePerMTok: 0, outputPricePerMTok: 0, unpriced: true });
  }
  return Object.freeze(model);
}

import type { Tier } from '@svc/core';
import { builtInModels } from './models/index.js';
import type { ModelInfo, ModelKind } from './model.js';
import { type ModelOverride, applyOverrides } from './overrides.js';
import { validateModels } from './validate.js';
import { variantOf } from './variants.js';

/** Narrows `Catalog.list`; every given field must match. */
export interface CatalogFilter {
  kind?: ModelKind;
  provider?: string;
  tier?: Tier;
}

/**
 * Providers that build the models they serve. When a bare upstream name is served by several
 * providers, one of these wins over a third-party host (`gpt-4o-mini` is OpenAI's own).
 */
export const FIRST_PARTY_PROVIDERS: ReadonlySet<string> = new Set([
  'openai',
  'anthropic',
  'gemini',
  'deepseek',
  'xai',
  'mistral',
  'cohere',
  'perplexity',
  'mock',
]);

/** The model catalog: an immutable, indexed set of models. */
export interface Catalog {
  /** Number of models. */
  readonly size: number;
  /** Exact lookup by slug (`openai/gpt-4o-mini`). */
  get(id: string): ModelInfo | undefined;
  /**
   * What a client's `model` string names: an exact slug; else a bare upstream name
   * (`gpt-4o-mini`); else either of those compared case-insensitively. When several providers
   * serve the same upstream name, a first-party provider (FIRST_PARTY_PROVIDERS) wins, and among
   * third-party hosts the one listed first in the catalog. Then, for a name none of those
   * matched, an OpenAI fine-tune (`ft:<base>:<org>:<suffix>:<id>`: the base's capabilities and
   * limits at OpenAI's fine-tuned prices) or a dated snapshot (`claude-sonnet-4-5-20250929`,
   * `gpt-4o-2024-08-06`: its family's entry), each under the exact name asked for (the upstream
   * receives it as given), remembered per name. Undefined when nothing matches. Map lookups
   * only; the case-insensitive pass runs only after both exact lookups miss.
   */
  resolve(model: string): ModelInfo | undefined;
  /** Models in catalog order, optionally filtered. Without a filter, the catalog's own array. */
  list(filter?: CatalogFilter): readonly ModelInfo[];
  /** Every model of one family: the same model on each provider that serves it. */
  family(family: string): readonly ModelInfo[];
  /** Provider ids that have at least one model. */
  providers(): ReadonlySet<string>;
  /** A catalog holding only the models whose provider is enabled (has a key configured). */
  forProviders(enabled: ReadonlySet<string>): Catalog;
  /**
   * A catalog with operator overrides applied: an override of a known id changes the given
   * fields; an unknown id adds a model, which must then be given in full. The result is
   * validated like any catalog.
   */
  withOverrides(overrides: readonly ModelOverride[]): Catalog;
}

const empty: readonly ModelInfo[] = Object.freeze([]);
/** Names clients choose: the variants remembered are bounded, then forgotten all at once. */
const maxVariants = 512;

function freezeModel(model: ModelInfo): ModelInfo {
  if (Object.isFrozen(model)) return model;
  return Object.freeze({ ...model, capabilities: Object.freeze([...model.capabilities]) });
}

function preferred(current: ModelInfo | undefined, candidate: ModelInfo): boolean {
  if (current === undefined) return true;
  return !FIRST_PARTY_PROVIDERS.has(current.provider) && FIRST_PARTY_PROVIDERS.has(candidate.provider);
}

class ModelCatalog implements Catalog {
  readonly size: number;
  readonly #models: readonly ModelInfo[];
  readonly #byId = new Map<string, ModelInfo>();
  readonly #byUpstream = new Map<string, ModelInfo>();
  readonly #byLowerName = new Map<string, ModelInfo>();
  readonly #byFamily = new Map<string, ModelInfo[]>();
  readonly #providers = new Set<string>();
  /** Fine-tunes and dated snapshots resolved so far (null: the name is none), at most `maxVariants`. */
  readonly #variants = new Map<string, ModelInfo | null>();
  readonly #lookup = (provider: string | undefined, name: string): ModelInfo | undefined =>
    provider === undefined ? (this.#byUpstream.get(name) ?? this.#byLowerName.get(name.toLowerCase())) : this.#byId.get(`${provider}/${name}`);

  /** `models` must already be validated and frozen. */
  constructor(models: readonly ModelInfo[]) {
    this.#models = Object.freeze([...models]);
    this.size = models.length;
    for (const model of models) {
      this.#byId.set(model.id, model);
      if (preferred(this.#byUpstream.get(model.upstreamId), model)) this.#byUpstream.set(model.upstreamId, model);
      const members = this.#byFamily.get(model.family);
      if (members) members.push(model);
      else this.#byFamily.set(model.family, [model]);
      this.#providers.add(model.provider);
    }
    // Case-insensitive fallbacks: slugs take precedence over upstream names.
    for (const model of this.#byUpstream.values()) this.#byLowerName.set(model.upstreamId.toLowerCase(), model);
    for (const model of models) this.#byLowerName.set(model.id.toLowerCase(), model);
    for (const members of this.#byFamily.values()) Object.freeze(members);
  }

  get(id: string): ModelInfo | undefined {
    return this.#byId.get(id);
  }

  resolve(model: string): ModelInfo | undefined {
    return this.#byId.get(model) ?? this.#byUpstream.get(model) ?? this.#byLowerName.get(model.toLowerCase()) ?? this.#variant(model);
  }

  /** A fine-tune or dated snapshot of a listed model (`variantOf`), built once per name. */
  #variant(model: string): ModelInfo | undefined {
    const known = this.#variants.get(model);
    if (known !== undefined) return known ?? undefined;
    const found = variantOf(model, this.#lookup);
    if (this.#variants.size >= maxVariants) this.#variants.clear();
    this.#variants.set(model, found ?? null);
    return found;
  }

  list(filter?: CatalogFilter): readonly ModelInfo[] {
    if (!filter || (filter.kind === undefined && filter.provider === undefined && filter.tier === undefined)) {
      return this.#models;
    }
    const { kind, provider, tier } = filter;
    return this.#models.filter(
      (m) =>
        (kind === undefined || m.kind === kind) &&
        (provider === undefined || m.provider === provider) &&
        (tier === undefined || m.tier === tier),
    );
  }

  family(family: string): readonly ModelInfo[] {
    return this.#byFamily.get(family) ?? empty;
  }

  providers(): ReadonlySet<string> {
    return this.#providers;
  }

  forProviders(enabled: ReadonlySet<string>): Catalog {
    return new ModelCatalog(this.#models.filter((m) => enabled.has(m.provider)));
  }

  withOverrides(overrides: readonly ModelOverride[]): Catalog {
    return createCatalog(applyOverrides(this.#models, overrides));
  }
}

/**
 * Builds a catalog from `models` (default: every built-in model), validating each model and
 * that ids are unique. Throws an Error naming the first offending model.
 */
export function createCatalog(models: readonly ModelInfo[] = builtInModels): Catalog {
  validateModels(models);
  return new ModelCatalog(models.map(freezeModel));
}

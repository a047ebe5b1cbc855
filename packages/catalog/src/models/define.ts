import type { ModelInfo, ModelKind } from '../model.js';

/** One entry of a provider's data file: everything but what the provider and kind imply. */
export type ModelSpec = Omit<ModelInfo, 'id' | 'provider' | 'kind' | 'free' | 'openWeight'> & {
  /** Defaults to true for open-weight models and for models priced at zero. */
  free?: boolean;
  openWeight?: boolean;
};

/** Builds the catalog entries of one provider; ids are `<provider>/<upstreamId>`. */
export function defineModels(provider: string, kind: ModelKind, specs: readonly ModelSpec[]): ModelInfo[] {
  return specs.map((spec) => {
    const openWeight = spec.openWeight ?? false;
    const zeroPriced = spec.inputPricePerMTok === 0 && spec.outputPricePerMTok === 0;
    return {
      ...spec,
      id: `${provider}/${spec.upstreamId}`,
      provider,
      kind,
      openWeight,
      free: spec.free ?? (openWeight || zeroPriced),
    };
  });
}

/** Unix seconds of a `YYYY-MM-DD` release date (UTC midnight). */
export function released(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000);
}

/**
 * The same models served by another provider (a cloud reselling them): each home entry named in
 * `upstreamIds` (home upstream id -> this provider's id) is copied under `provider`, keeping its
 * family, limits, prices and priors; `changes` overrides fields for every copy. Throws on a home
 * id that is not in `home`, so a renamed home entry cannot silently drop its hosted copies.
 */
export function hostModels(
  provider: string,
  home: readonly ModelInfo[],
  upstreamIds: Readonly<Record<string, string>>,
  changes: Partial<Omit<ModelInfo, 'id' | 'provider' | 'upstreamId' | 'family'>> = {},
): ModelInfo[] {
  const byUpstream = new Map(home.map((model) => [model.upstreamId, model]));
  return Object.entries(upstreamIds).map(([homeId, upstreamId]) => {
    const model = byUpstream.get(homeId);
    if (!model) throw new Error(`hostModels(${provider}): no home model "${homeId}"`);
    return { ...model, ...changes, id: `${provider}/${upstreamId}`, provider, upstreamId };
  });
}

/** One entry of a moderation, speech or transcription model: the token fields are implied (none). */
export type AudioSpec = Pick<ModelSpec, 'upstreamId' | 'family' | 'tier' | 'created' | 'qualityPrior' | 'unitPrices' | 'voice'> & { contextWindow?: number };

/** Moderation, speech and transcription models of one provider: no token prices, no output tokens; moderation is free. */
export function audio(provider: string, kind: 'moderation' | 'speech' | 'transcription', specs: readonly AudioSpec[]): ModelInfo[] {
  return defineModels(
    provider,
    kind,
    specs.map((spec) => ({
      contextWindow: 4_096,
      ...spec,
      maxOutputTokens: 0,
      inputPricePerMTok: 0,
      outputPricePerMTok: 0,
      capabilities: kind === 'moderation' ? [] : (['audio'] as const),
      free: kind === 'moderation',
    })),
  );
}


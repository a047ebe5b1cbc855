import { tokenCostUsd } from '@svc/billing';
import type { Catalog } from '@svc/catalog';
import type { ProviderRegistry } from '@svc/providers';
import { type Embedder, calibratedThreshold, createHashedEmbedder, createProviderEmbedder } from '@svc/semantic';
import type { Metrics } from '@svc/telemetry';
import { ConfigError } from './env.js';

/** The semantic cache's embedder and the similarity threshold it is used at. */
export interface SemanticEmbedderChoice {
  embedder: Embedder;
  /** Lowest cosine: for an embedder with a trained verifier (hashed), the floor under which the verifier is not asked. */
  threshold: number;
}

const slugPattern = /^(?<slug>[^@\s]+\/[^@\s]+?)(?:@(?<dimensions>\d+))?$/;

/**
 * `SVC_SEMANTIC_EMBEDDER`: `hashed` (the default: local, no network, with its trained verifier) or an
 * embeddings model of a configured provider, `<provider>/<model>[@dimensions]` (e.g.
 * `openai/text-embedding-3-small@512`). A model embedder has no calibrated threshold until someone
 * calibrates it on the evaluation data (docs/caching.md), so `SVC_SEMANTIC_THRESHOLD` is then
 * required; a guessed default would serve wrong answers or never hit. Its calls are the
 * platform's own spend: counted in the token and cost metrics under the model.
 *
 * @throws ConfigError naming the variable: unknown model, not an embeddings model, provider not
 *   configured, no threshold.
 */
export function chooseSemanticEmbedder(
  setting: string,
  thresholdSetting: number | undefined,
  catalog: Pick<Catalog, 'get'>,
  providers: Pick<ProviderRegistry, 'get'>,
  metrics: Pick<Metrics, 'model'>,
): SemanticEmbedderChoice {
  if (setting === 'hashed') {
    const embedder = createHashedEmbedder();
    return { embedder, threshold: thresholdSetting ?? calibratedThreshold(embedder.id)! };
  }
  const parsed = slugPattern.exec(setting)?.groups;
  const fix = 'use `hashed` or `<provider>/<embeddings model>[@dimensions]` of a configured provider';
  if (!parsed) throw new ConfigError('SVC_SEMANTIC_EMBEDDER', `'${setting}' is not an embedder; ${fix}`);
  const model = catalog.get(parsed.slug!);
  if (model?.kind !== 'embedding') throw new ConfigError('SVC_SEMANTIC_EMBEDDER', `'${parsed.slug}' is not an embeddings model of a configured provider; ${fix}`);
  const provider = providers.get(model.provider);
  const embed = provider?.embed?.bind(provider);
  if (!embed) throw new ConfigError('SVC_SEMANTIC_EMBEDDER', `provider ${model.provider} serves no embeddings here; ${fix}`);
  const dimensions = parsed.dimensions === undefined ? model.dimensions : Number(parsed.dimensions);
  if (!dimensions) throw new ConfigError('SVC_SEMANTIC_EMBEDDER', `'${parsed.slug}' has no known dimensions; name them as ${parsed.slug}@<dimensions>`);
  const id = `${model.id}@${dimensions}`;
  const threshold = thresholdSetting ?? calibratedThreshold(id);
  if (threshold === undefined) {
    throw new ConfigError('SVC_SEMANTIC_THRESHOLD', `embedder ${id} has no calibrated threshold; calibrate it (docs/caching.md, "Semantic cache") and set SVC_SEMANTIC_THRESHOLD`);
  }
  const shorten = parsed.dimensions !== undefined;
  const embedder = createProviderEmbedder({
    id,
    dimensions,
    async embed(texts) {
      const result = await embed({ model: model.upstreamId, input: texts, ...(shorten ? { dimensions } : {}) });
      const tokens = result.usage.promptTokens;
      const series = metrics.model(model.provider, model.id);
      series.promptTokens.inc(tokens);
      series.costUsd.inc(tokenCostUsd(model, { promptTokens: tokens }));
      return result.embeddings;
    },
  });
  return { embedder, threshold };
}

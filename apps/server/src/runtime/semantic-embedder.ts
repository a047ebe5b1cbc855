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

/** What {@link chooseSemanticEmbedder} reads. */
export interface SemanticEmbedderSettings {
  /** `SVC_SEMANTIC_EMBEDDER`. */
  setting: string;
  /** `SVC_SEMANTIC_THRESHOLD`, when set. */
  threshold: number | undefined;
  /** The runtime's one sentence encoder (`SVC_SENTENCE_ENCODER`), shared with memory. */
  shared: Embedder;
  catalog: Pick<Catalog, 'get'>;
  providers: Pick<ProviderRegistry, 'get'>;
  metrics: Pick<Metrics, 'model'>;
}

function calibrated(embedder: Embedder, thresholdSetting: number | undefined): SemanticEmbedderChoice {
  const threshold = thresholdSetting ?? calibratedThreshold(embedder.id);
  if (threshold === undefined) {
    throw new ConfigError('SVC_SEMANTIC_THRESHOLD', `embedder ${embedder.id} has no calibrated threshold; calibrate it (docs/caching.md, "Semantic cache") and set SVC_SEMANTIC_THRESHOLD`);
  }
  return { embedder, threshold };
}

/**
 * `SVC_SEMANTIC_EMBEDDER`: `shared` (the default: the runtime's one sentence encoder, all-MiniLM-L6-v2
 * unless `SVC_SENTENCE_ENCODER=hashed`, so a request is embedded once for memory and the cache),
 * `hashed` (local n-grams with their trained verifier, for tests and tiny machines) or an
 * embeddings model of a configured provider, `<provider>/<model>[@dimensions]` (e.g.
 * `openai/text-embedding-3-small@512`). An embedder has no threshold until someone calibrates it
 * on the evaluation data (docs/caching.md), so `SVC_SEMANTIC_THRESHOLD` is then required; a
 * guessed default would serve wrong answers or never hit. A model's calls are the platform's own
 * spend: counted in the token and cost metrics under the model.
 *
 * @throws ConfigError naming the variable: unknown model, not an embeddings model, provider not
 *   configured, no threshold.
 */
export function chooseSemanticEmbedder(settings: SemanticEmbedderSettings): SemanticEmbedderChoice {
  const { setting, threshold: thresholdSetting, catalog, providers, metrics } = settings;
  if (setting === 'shared') return calibrated(settings.shared, thresholdSetting);
  if (setting === 'hashed') return calibrated(createHashedEmbedder(), thresholdSetting);
  const parsed = slugPattern.exec(setting)?.groups;
  const fix = 'use `shared`, `hashed` or `<provider>/<embeddings model>[@dimensions]` of a configured provider';
  if (!parsed) throw new ConfigError('SVC_SEMANTIC_EMBEDDER', `'${setting}' is not an embedder; ${fix}`);
  const model = catalog.get(parsed.slug!);
  if (model?.kind !== 'embedding') throw new ConfigError('SVC_SEMANTIC_EMBEDDER', `'${parsed.slug}' is not an embeddings model of a configured provider; ${fix}`);
  const provider = providers.get(model.provider);
  const embed = provider?.embed?.bind(provider);
  if (!embed) throw new ConfigError('SVC_SEMANTIC_EMBEDDER', `provider ${model.provider} serves no embeddings here; ${fix}`);
  const dimensions = parsed.dimensions === undefined ? model.dimensions : Number(parsed.dimensions);
  if (!dimensions) throw new ConfigError('SVC_SEMANTIC_EMBEDDER', `'${parsed.slug}' has no known dimensions; name them as ${parsed.slug}@<dimensions>`);
  const id = `${model.id}@${dimensions}`;
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
  return calibrated(embedder, thresholdSetting);
}

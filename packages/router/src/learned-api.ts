import type { Catalog, ModelInfo } from '@svc/catalog';
import { type ChatRequest, invalidRequest, modelNotFound } from '@svc/core';
import { type RequestEmbedder, defaultEmbedder } from './embedder.js';
import { type RequestFeatures, extractFeatures, lastUserText } from './features.js';
import { type Item, type QualityEstimator, thresholdForShare } from './quality/estimator.js';
import type { RouteContext, RouteDecision } from './types.js';

/** One ranked model: higher score is better (comparable inside one call only). */
export interface RankedModel {
  id: string;
  score: number;
}

/** The quality-model side of the router: what other TypeScript projects call. */
export interface LearnedApi {
  /** The request's sentence embedding (last user message), or undefined without an embedder. */
  embed(request: ChatRequest | string): Promise<Float32Array | undefined>;
  /** Estimated probability (0..1) that `strongId`'s answer beats `weakId`'s on this request (ties count half). */
  winRate(request: ChatRequest | string, strongId: string, weakId: string): Promise<number>;
  /** Candidates (default: every routable chat model) best first, scored as `route` scores them with the embedding. */
  rank(request: ChatRequest | string, options?: { candidates?: readonly string[]; context?: RouteContext }): Promise<RankedModel[]>;
  /** The threshold on `winRate` that sends `strongShare` of typical (training) prompts to `strongId`. */
  thresholdFor(strongShare: number, strongId: string, weakId: string): number;
  /** RouteLLM's calibration on your own prompts: the `winRate` threshold that sends `strongShare` of them to `strongId`. */
  calibrate(requests: readonly (ChatRequest | string)[], strongShare: number, strongId: string, weakId: string): Promise<number>;
}

export interface LearnedApiSettings {
  catalog: Catalog;
  estimator: QualityEstimator | undefined;
  /** The estimator's reading of a request as the router uses it (the prior where the model is not trusted). */
  item(features: RequestFeatures, embedding: Float32Array | undefined): Item | undefined;
  embedder: RequestEmbedder | false | undefined;
  route(request: ChatRequest, context?: RouteContext): RouteDecision;
}

const asRequest = (request: ChatRequest | string): ChatRequest =>
  typeof request === 'string' ? { model: 'svc/auto', messages: [{ role: 'user', content: request }], stream: false, n: 1, includeUsage: false } : request;

export function createLearnedApi(settings: LearnedApiSettings): LearnedApi {
  const { catalog, estimator } = settings;
  const embedder = (): Promise<RequestEmbedder | undefined> => (settings.embedder === false ? Promise.resolve(undefined) : settings.embedder ? Promise.resolve(settings.embedder) : defaultEmbedder());
  const model = (id: string, param: string): ModelInfo => {
    const found = catalog.resolve(id);
    if (!found) throw modelNotFound(`The model '${id}' is not in the router's catalog or models.`, param);
    return found;
  };
  const quality = (): QualityEstimator => {
    if (!estimator) throw invalidRequest('This router was created without a quality model (quality: false).', 'quality');
    return estimator;
  };

  async function embedAll(requests: readonly ChatRequest[]): Promise<(Float32Array | undefined)[]> {
    const e = await embedder();
    if (!e) return requests.map(() => undefined);
    return e.embed(requests.map(lastUserText));
  }

  async function winRates(requests: readonly ChatRequest[], strongId: string, weakId: string): Promise<number[]> {
    const q = quality();
    const strong = model(strongId, 'strong').qualityPrior;
    const weak = model(weakId, 'weak').qualityPrior;
    const vectors = await embedAll(requests);
    return requests.map((r, i) => {
      return q.winRate(strong, weak, settings.item(extractFeatures(r), vectors[i]) ?? q.item(extractFeatures(r), vectors[i]));
    });
  }

  return {
    async embed(request) {
      return (await embedAll([asRequest(request)]))[0];
    },
    async winRate(request, strongId, weakId) {
      return (await winRates([asRequest(request)], strongId, weakId))[0]!;
    },
    async rank(request, options = {}) {
      const r = asRequest(request);
      const embedding = (await embedAll([r]))[0];
      const decision = settings.route({ ...r, model: 'svc/auto' }, { ...options.context, embedding, candidates: options.candidates, maxCandidates: Number.POSITIVE_INFINITY });
      return decision.candidates.map((c) => ({ id: c.id, score: c.score }));
    },
    thresholdFor(strongShare, strongId, weakId) {
      return quality().thresholdFor(model(strongId, 'strong').qualityPrior, model(weakId, 'weak').qualityPrior, strongShare);
    },
    async calibrate(requests, strongShare, strongId, weakId) {
      const wins = await winRates(requests.map(asRequest), strongId, weakId);
      return thresholdForShare(wins.sort((a, b) => b - a), strongShare);
    },
  };
}

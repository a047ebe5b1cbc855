import type { RequestFeatures } from '../features.js';
import type { RouteDecision, TaskFamily } from '../types.js';
import { inTrainingDomain } from './domain.js';
import { type Item, type QualityEstimator, createQualityEstimator } from './estimator.js';
import type { QualityModel } from './quality-model.js';
import { shippedQualityModel } from './shipped.js';
import { shippedQualityTrust } from './shipped-trust.js';
import { type QualityTrust, trustEverywhere, trusts, typicalItem } from './trust.js';

/**
 * How the router reads a request through the quality model: the estimator, the task families
 * where its per-prompt reading is trusted, and the typical training prompt read elsewhere (the
 * prior: prompts ranked alike).
 */
export interface QualityReading {
  readonly estimator: QualityEstimator;
  readonly trust: QualityTrust;
  readonly typical: Item;
}

/**
 * The reading of `RouterOptions.quality` / `qualityTrust`: the shipped model with its measured
 * trust by default, a model the caller brings trusted everywhere; undefined for `quality: false`.
 */
export function createQualityReading(quality: QualityModel | false | undefined, trust: QualityTrust | undefined): QualityReading | undefined {
  if (quality === false) return undefined;
  const estimator = createQualityEstimator(quality ?? shippedQualityModel());
  return { estimator, trust: trust ?? (quality === undefined ? shippedQualityTrust : trustEverywhere), typical: typicalItem(estimator) };
}

/**
 * The quality model's reading of a request: its own item where the model is trusted for the
 * request's family and the request's embedding is like the training prompts (`domain`), else the
 * typical training prompt (the prior); undefined without a model. Without an embedding (text
 * signals only) there is nothing to compare, and the family rule alone decides.
 */
export function readItem(reading: QualityReading | undefined, features: RequestFeatures, embedding: ArrayLike<number> | undefined, family: TaskFamily): Item | undefined {
  if (!reading) return undefined;
  if (!trusts(reading.trust, family)) return reading.typical;
  const { domain, dimensions } = reading.estimator.model;
  if (domain && embedding?.length === dimensions && !inTrainingDomain(domain, embedding)) return reading.typical;
  return reading.estimator.item(features, embedding);
}

/** What a decision says of the reading: the request's difficulty, or `qualityFallback` when the prior was read. */
export function readingFields(reading: QualityReading | undefined, item: Item | undefined): Pick<RouteDecision, 'difficulty' | 'qualityFallback'> {
  const fallback = item !== undefined && item === reading?.typical;
  return { difficulty: fallback ? undefined : item?.d, qualityFallback: fallback ? true : undefined };
}

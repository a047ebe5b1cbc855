import { computeCost, imageCost } from '@svc/billing';
import type { Catalog, ModelInfo } from '@svc/catalog';
import { type SvcMetadata, noProviderConfigured } from '@svc/core';
import type { ImageGenerationRequest, ImageGenerationResult, ImageUsage } from '@svc/providers';
import type { Exchange } from '../gateway.js';
import type { ImageStore } from './image-store.js';
import { type UnitStageDeps, admitUnits, callCandidates, orgProviders, recordUnitUsage } from './unit-stage.js';
import { requireAllowedModel } from '../chat/org-policy.js';
import { imageModel } from '@svc/router';

/** The image stage's deps: the single-model stages' and where URL-delivered images are kept. */
export interface ImageStageDeps extends UnitStageDeps {
  images: ImageStore;
}

/** An image-generation request in canonical names; the protocol layer has checked it against the model. */
export interface GenerateImagesRequest extends Omit<ImageGenerationRequest, 'model'> {
  /** A slug or bare upstream name of an image model; absent: the catalog's first (DALL·E 3). */
  model?: string;
  // `size` and `quality`: what the model draws when absent is priced by its table's `default`
  // entry; the protocol layer sends the model's defaults explicitly.
  /** `url`: each image is stored and named (`file`); `b64_json`: the base64 is answered. */
  responseFormat: 'url' | 'b64_json';
}

/** One delivered image: the stored file's name (`<id>.<extension>`) or the base64. */
export type DeliveredImageRef = ({ file: string } | { b64Json: string }) & { revisedPrompt?: string };

export interface GenerateImagesResponse {
  /** Unix seconds, as the upstream stamped the generation. */
  created: number;
  images: DeliveredImageRef[];
  /** The slug of the model that drew. */
  model: string;
  costUsd: number;
  /** True when the cost was priced from the per-image table where the upstream reports tokens it did not send. */
  costEstimated: boolean;
  /** The tokens a GPT image model billed. */
  usage?: ImageUsage;
  metadata: SvcMetadata;
  /** `x-svc-*` and `x-ratelimit-*` headers, `x-svc-cost-estimated` among them. */
  headers: Record<string, string>;
}

/**
 * The image-generation stage: resolve the image model (the catalog's first, DALL·E 3, when none
 * is named), admit against the organisation's limits with the price of `n` images of the asked
 * quality and size, call the provider (the organisation's own key first, else the platform's;
 * the same model on another provider when one fails retryably), price what was drawn and queue
 * the ledger row, then store the images for their URLs when `url` was asked.
 *
 * Pricing: per image of `quality:size` (`unitPrices.perImage`); a model billed by tokens
 * (gpt-image-1) is priced from the usage the upstream reports, else from the table, said
 * estimated.
 *
 * @throws GatewayError 500 `no_provider_configured` when no key serves image generation; 400
 *   `model_not_found` (param `model`); 429/402 from the limits; the provider's error (a refused
 *   prompt is 400 `content_filter`); 500 when the kv cannot store the images.
 */
export async function generateImages(deps: ImageStageDeps, request: GenerateImagesRequest, context: Exchange): Promise<GenerateImagesResponse> {
  const org = await orgProviders(deps, context.caller.org.id);
  const primary = requireAllowedModel(context.caller, imageModel(deps.catalog, request.model));
  const candidates = [primary, ...deps.catalog.family(primary.family).filter((m) => m.kind === 'image' && m.id !== primary.id)];
  const estimatedCostUsd = perImageCost(primary, request, request.n);
  const reservation = await admitUnits(deps, context, { tokens: 0, costUsd: estimatedCostUsd });
  const { responseFormat, model: _requested, ...options } = request;
  let answered: { model: ModelInfo; result: ImageGenerationResult };
  try {
    answered = await callCandidates(deps, org, candidates, context.signal, (provider, model) => {
      const call = provider.generateImages?.bind(provider);
      return call && ((bounds) => call({ ...options, model: model.upstreamId }, bounds));
    });
  } catch (error) {
    void reservation.release();
    throw error;
  }
  const { model, result } = answered;
  const { costUsd, costEstimated } = priceImages(model, request, result);
  if (result.usage) {
    const series = deps.metrics.model(model.provider, model.id);
    series.promptTokens.inc(result.usage.inputTokens);
    series.completionTokens.inc(result.usage.outputTokens);
  }
  // The ledger row goes first: the upstream billed the images even if storing them fails.
  const { metadata, headers } = recordUnitUsage(deps, context, reservation, {
    model,
    requestedModel: request.model ?? model.id,
    costUsd,
    byok: org.ownKey(model.provider),
    promptTokens: result.usage?.inputTokens ?? 0,
    completionTokens: result.usage?.outputTokens ?? 0,
    decisionSource: request.model === undefined ? 'Auto' : 'Explicit',
    estimatedCostUsd,
  });
  headers['x-svc-cost-estimated'] = String(costEstimated);
  const images = await deliver(deps.images, result, responseFormat);
  const response: GenerateImagesResponse = { created: result.created, images, model: model.id, costUsd, costEstimated, metadata, headers };
  if (result.usage) response.usage = result.usage;
  return response;
}

/** `count` images of the request's quality and size at the model's per-image price (the `default` entry when no size was set). */
function perImageCost(model: ModelInfo, request: GenerateImagesRequest, count: number): number {
  return imageCost(model, { count, size: request.size ?? 'default', ...(request.quality === undefined ? {} : { quality: request.quality }) });
}

/**
 * What the drawn images cost: a model billed by tokens (an output token price) from the usage
 * the upstream reported, else from its per-image table, then said estimated; a model billed
 * per image by its table, per image returned.
 */
function priceImages(model: ModelInfo, request: GenerateImagesRequest, result: ImageGenerationResult): { costUsd: number; costEstimated: boolean } {
  const byTokens = model.outputPricePerMTok > 0;
  if (byTokens && result.usage) {
    const { inputTokens, outputTokens } = result.usage;
    return { costUsd: computeCost(model, { promptTokens: inputTokens, completionTokens: outputTokens, totalTokens: inputTokens + outputTokens }).costUsd, costEstimated: false };
  }
  return { costUsd: perImageCost(model, request, result.images.length), costEstimated: byTokens };
}

async function deliver(store: ImageStore, result: ImageGenerationResult, format: 'url' | 'b64_json'): Promise<DeliveredImageRef[]> {
  const files = format === 'url' ? await Promise.all(result.images.map((image) => store.put(image.b64Json))) : undefined;
  return result.images.map((image, index) => {
    const ref: DeliveredImageRef = files ? { file: files[index]! } : { b64Json: image.b64Json };
    if (image.revisedPrompt !== undefined) ref.revisedPrompt = image.revisedPrompt;
    return ref;
  });
}

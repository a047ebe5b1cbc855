import { type Catalog, type ModelInfo, type ModelKind, isRetired } from '@svc/catalog';
import { modelNotFound, noProviderConfigured } from '@svc/core';
import { unlessRetired } from '../retired.js';

/** How a modality's errors name it: the model kind in words, the request field that names the model. */
export interface ModalityWords {
  /** `an embedding model`, `a configured text-to-speech model`, ... */
  readonly aModel: string;
  /** The field that names the model (`model`, `stt_model`, `tts_model`). Default `model`. */
  readonly param?: string;
}

/**
 * The model of `kind` a client named, by slug, alias or upstream name.
 *
 * @throws GatewayError 404 `model_not_found` (param `words.param`) when it is unknown or of another kind,
 *   404 `model_retired` when it is past its retirement date.
 */
export function namedModel(catalog: Catalog, requested: string, kind: ModelKind, words: ModalityWords): ModelInfo {
  const model = catalog.resolve(requested);
  if (model?.kind !== kind) {
    throw modelNotFound(`The model '${requested}' does not exist or is not ${words.aModel}. GET /v1/models lists the available models.`, words.param ?? 'model');
  }
  return unlessRetired(model, words.param ?? 'model');
}

/**
 * The model of `kind` a client named, or the catalog's first one of that kind when it named none
 * (moderation, speech, transcription, images, realtime).
 *
 * @throws GatewayError 404 `model_not_found` (param `model`) for a model that is not of `kind`;
 *   500 `no_provider_configured` when no model of `kind` is configured at all.
 */
export function unitModel(catalog: Catalog, requested: string | undefined, kind: ModelKind, what: string): ModelInfo {
  if (requested !== undefined) return namedModel(catalog, requested, kind, { aModel: `a ${what} model` });
  const first = catalog.list({ kind }).find((m) => !isRetired(m));
  if (!first) throw noProviderConfigured(`No provider key configured for ${what}.`);
  return first;
}

/** The named image model, or the default; 500 when no key serves images at all, whatever was named. */
export function imageModel(catalog: Catalog, requested: string | undefined): ModelInfo {
  if (catalog.list({ kind: 'image' }).length === 0) throw noProviderConfigured('No provider key configured for image generation.');
  return unitModel(catalog, requested, 'image', 'image generation');
}

const autoNames: ReadonlySet<string> = new Set(['auto', 'svc/auto']);

/** Whether a model name asks the gateway to choose (`auto`, `svc/auto`). */
export function choosesModel(requested: string): boolean {
  return autoNames.has(requested);
}

/**
 * The requested embedding model, or for `auto` / `svc/auto` the cheapest one a configured
 * provider serves (`served`), the better prior first on a tie.
 *
 * @throws GatewayError 404 `model_not_found`; 500 `no_provider_configured` for `auto` when none is served.
 */
export function embeddingModel(catalog: Catalog, requested: string, served: (model: ModelInfo) => boolean): ModelInfo {
  if (!choosesModel(requested)) return namedModel(catalog, requested, 'embedding', { aModel: 'an embedding model' });
  const choice = catalog
    .list({ kind: 'embedding' })
    .filter((m) => m.kind === 'embedding' && served(m) && !isRetired(m))
    .sort((a, b) => a.inputPricePerMTok - b.inputPricePerMTok || b.qualityPrior - a.qualityPrior)[0];
  if (!choice) throw noProviderConfigured('No configured provider serves embeddings.');
  return choice;
}

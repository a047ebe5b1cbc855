import type { ModelInfo } from '@svc/catalog';
import { type Organization, authorizationError } from '@svc/core';

/**
 * The organisation's `free_models_only` policy on a model an endpoint chose or was asked for: a
 * model neither free nor open-weight is a 403 `forbidden` policy denial. The chat router applies
 * the same rule when it routes (`RouteContext.orgPolicy`); this is its counterpart for the
 * endpoints that pick one model (embeddings, moderation, audio, images, voice, realtime).
 */
export function requireAllowedModel(org: Pick<Organization, 'freeModelsOnly'>, model: ModelInfo): ModelInfo {
  if (org.freeModelsOnly === true && !model.free && !model.openWeight) {
    throw authorizationError('forbidden', `Your organisation may use free or open-weight models only, and '${model.id}' is neither. Name one that is.`);
  }
  return model;
}

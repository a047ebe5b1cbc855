import type { ModelInfo } from '@svc/catalog';
import { type Caller, authorizationError } from '@svc/core';
import { CallerModelAccess } from './model-access.js';

/**
 * The organisation's `free_models_only` policy and the caller's model access (`model_access` of
 * its key and organisation) on a model an endpoint chose or was asked for: a model neither free
 * nor open-weight is a 403 `forbidden` policy denial, one the lists refuse a 403
 * `model_not_allowed`. The chat router applies the same rules when it routes
 * (`RouteContext.orgPolicy`, `accessRouting`); this is their counterpart for the endpoints that
 * pick one model (embeddings, moderation, audio, images, voice, realtime).
 */
export function requireAllowedModel(caller: Pick<Caller, 'org' | 'modelAccess'>, model: ModelInfo, param = 'model'): ModelInfo {
  if (caller.org.freeModelsOnly === true && !model.free && !model.openWeight) {
    throw authorizationError('forbidden', `Your organisation may use free or open-weight models only, and '${model.id}' is neither. Name one that is.`);
  }
  CallerModelAccess.of(caller)?.checkModel(model, model.id, param);
  return model;
}

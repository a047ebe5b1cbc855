import { type ModelInfo, isRetired } from '@svc/catalog';
import { modelRetired } from '@svc/core';

/**
 * `model` when it is still served; past its retirement date, the refusal naming what replaces it.
 *
 * @throws GatewayError 404 `model_retired` (param `param`).
 */
export function unlessRetired(model: ModelInfo, param: string): ModelInfo {
  if (model.retiresAt === undefined || !isRetired(model)) return model;
  const instead = model.replacement ? ` Use '${model.replacement}' instead.` : ' GET /v1/models lists the available models.';
  throw modelRetired(`The model '${model.id}' was retired on ${model.retiresAt} and is no longer served.${instead}`, param);
}

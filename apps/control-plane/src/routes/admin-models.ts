import type { ModelInfo } from '@svc/catalog';
import { modelEntrySchema } from '@svc/catalog';
import { notFound } from '@svc/core';
import { type RouteRegistry, validate } from '@svc/http-kit';
import { adminOnly, defineRoute, jsonResponse } from '@svc/openapi';
import type { Context } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps, StoredModelView } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { readJson } from '../read-json.js';
import { strictBody } from '../strict-body.js';

// `id` is the path's; `fallbacks` are read from SVC_CONFIG at start only.
const { id: _id, fallbacks: _fallbacks, ...entryFields } = modelEntrySchema.entries;

/** The body of PUT /v1/admin/models/{model}: SVC_CONFIG `models:` fields, every one optional, unknown ones refused. */
export const storedModelBodySchema = strictBody(entryFields);

/** A stored model's id, as the path and the dashboard's form give it. */
export const storedModelId = v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]*\/\S+$/, 'must be a model id, <provider>/<model> with the provider in lowercase'));

/** The model the catalog serves for an entry, as the admin API shows it (prices USD per million tokens). */
function modelToWire(model: ModelInfo) {
  return {
    id: model.id,
    provider: model.provider,
    upstream_id: model.upstreamId,
    family: model.family,
    kind: model.kind,
    tier: model.tier,
    quality_prior: model.qualityPrior,
    context_window: model.contextWindow,
    max_output_tokens: model.maxOutputTokens,
    input_price_per_mtok: model.inputPricePerMTok,
    output_price_per_mtok: model.outputPricePerMTok,
    cached_input_price_per_mtok: model.cachedInputPricePerMTok ?? null,
    capabilities: model.capabilities,
    routable: model.routable !== false,
    safety_critical: model.safetyCritical === true,
    unpriced: model.unpriced === true,
    retires_at: model.retiresAt ?? null,
    replacement: model.replacement ?? null,
    source: model.source ?? 'catalog',
  };
}

function viewToWire({ record, model }: StoredModelView) {
  return {
    object: 'stored_model',
    id: record.id,
    entry: record.entry,
    served: model ? modelToWire(model) : null,
    updated_by: record.updatedBy,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}

/** The model id in the path (greedy: it holds a slash), or 400 naming `model`. */
function pathModel(c: Context<ControlEnv>): string {
  return validate(v.object({ model: storedModelId }), { model: decodeURIComponent(c.req.param('model') ?? '') }).model;
}

const modelParams = v.object({ model: v.pipe(v.string(), v.description('The model id, `<provider>/<model>` (may be percent-encoded).')) });
const storedAnswer = jsonResponse('The `stored_model`: the stored `entry` (SVC_CONFIG `models:` fields), `served` (the catalog model it makes on this instance, null while its provider is not configured here), who wrote it and when.');
const tags = ['Admin: models'];

export const listStoredModelsRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/models',
  operationId: 'listStoredModels',
  summary: 'Models added or overridden through the admin API',
  tags,
  auth: adminOnly,
  responses: { 200: jsonResponse('A `list` of `stored_model` objects, by id.') },
});

export const getStoredModelRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/models/{model}',
  operationId: 'getStoredModel',
  summary: 'One stored model entry',
  tags,
  auth: adminOnly,
  params: modelParams,
  greedyParams: ['model'],
  responses: { 200: storedAnswer },
  errors: [400, 404],
});

export const putStoredModelRoute = defineRoute({
  method: 'put',
  path: '/v1/admin/models/{model}',
  operationId: 'putStoredModel',
  summary: 'Add a model, or override fields of a catalog entry',
  description:
    "Stored in the database and served by every instance without a restart (a change notice through the kv, and a periodic re-read). The body takes SVC_CONFIG `models:` fields (snake_case, prices USD per million tokens), each optional; an unknown field is a 400 naming it. For a model the catalog or SVC_CONFIG lists, the fields given replace its own (a price, a retirement date); any other id adds a model of that provider, which must be configured, its other fields from the provider's `model_defaults`. A PUT replaces the whole stored entry. `retires_at` past: no alias picks the model and naming it is a 404 `model_retired` naming `replacement`; before it, answers carry `Deprecation`, `Sunset` and `Link` headers.",
  tags,
  auth: adminOnly,
  params: modelParams,
  greedyParams: ['model'],
  body: { schema: storedModelBodySchema, name: 'PutStoredModelRequest' },
  responses: { 200: storedAnswer, 201: storedAnswer },
  errors: [400, 413],
});

export const deleteStoredModelRoute = defineRoute({
  method: 'delete',
  path: '/v1/admin/models/{model}',
  operationId: 'deleteStoredModel',
  summary: 'Remove a stored model entry',
  description: 'Every instance stops serving the added model, or serves the catalog (or SVC_CONFIG) entry again, within a notice round trip.',
  tags,
  auth: adminOnly,
  params: modelParams,
  greedyParams: ['model'],
  responses: { 200: jsonResponse('`{object: "stored_model", id, status: "deleted"}`.') },
  errors: [400, 404],
});

export const refreshModelsRoute = defineRoute({
  method: 'post',
  path: '/v1/admin/models/refresh',
  operationId: 'refreshDiscoveredModels',
  summary: "Read OpenAI-compatible providers' model lists again",
  description:
    "Each instance reads `GET <base_url>/models` of the OpenAI-compatible providers the catalog does not describe (vLLM, Ollama, LM Studio...) and serves what they list now; a provider that cannot be read keeps the models it listed before. The answer is this instance's reading.",
  tags,
  auth: adminOnly,
  responses: { 200: jsonResponse('`{object: "model_discovery", providers: [{provider, url, models, error?}], models: [ids]}`.') },
});

/** `/v1/admin/models[/{model}]` and the discovery refresh: models as data, stored for the whole deployment. */
export function registerAdminModels(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(listStoredModelsRoute, async (c) => c.json({ object: 'list', data: (await deps.models.list()).map(viewToWire) }));

  routes.add(refreshModelsRoute, async (c) => {
    const { providers, models } = await deps.models.refresh();
    return c.json({ object: 'model_discovery', providers, models: models.map((model) => model.id) });
  });

  routes.add(getStoredModelRoute, async (c) => {
    const id = pathModel(c);
    const view = await deps.models.get(id);
    if (!view) throw notFound(`No stored entry for the model '${id}'.`, 'model');
    return c.json(viewToWire(view));
  });

  routes.add(putStoredModelRoute, async (c) => {
    const id = pathModel(c);
    const body = validate(storedModelBodySchema, await readJson(c, deps.maxBodyBytes));
    const { view, created } = await deps.models.put(id, body, c.get('caller').keyId);
    return c.json(viewToWire(view), created ? 201 : 200);
  });

  routes.add(deleteStoredModelRoute, async (c) => {
    const id = pathModel(c);
    if (!(await deps.models.delete(id))) throw notFound(`No stored entry for the model '${id}'.`, 'model');
    return c.json({ object: 'stored_model', id, status: 'deleted' });
  });
}

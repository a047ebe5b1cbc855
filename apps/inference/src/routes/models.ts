import type { ModelInfo, ModelSource } from '@svc/catalog';
import { notFound } from '@svc/core';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import type { RouteRegistry } from '@svc/http-kit';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { reportMode } from '../report-mode.js';

/** Routing aliases are model identifiers too (spec §Routing aliases). */
export const routingAliases: readonly string[] = ['svc/auto', 'svc/auto-quality', 'svc/auto-value', 'svc/auto-speed', 'svc/auto-safety'];
const aliasCreated = 1767225600; // 2026-01-01: when the alias set was published

/**
 * `svc.source`, an extension of OpenAI's model object (the spec allows new response fields): where
 * the entry came from, `catalog` (built in), `config` (SVC_CONFIG `models:`), `stored` (the admin
 * API), `discovered` (the provider's own `GET /models`), `passthrough` (named by a client, forwarded
 * as named) or `alias`; `svc.unpriced` when the gateway knows no price for it; `svc.retires_at` and
 * `svc.replacement` for a model with a retirement date.
 */
interface WireModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  svc: { source: ModelSource | 'alias'; unpriced?: true; retires_at?: string; replacement?: string };
}

function toWire(model: ModelInfo): WireModel {
  const svc: WireModel['svc'] = { source: model.source ?? 'catalog' };
  if (model.unpriced) svc.unpriced = true;
  if (model.retiresAt) svc.retires_at = model.retiresAt;
  if (model.replacement) svc.replacement = model.replacement;
  return { id: model.id, object: 'model', created: model.created, owned_by: model.provider, svc };
}

function aliasWire(id: string): WireModel {
  return { id, object: 'model', created: aliasCreated, owned_by: 'svc', svc: { source: 'alias' } };
}

export const listModelsRoute = defineRoute({
  method: 'get',
  path: '/v1/models',
  operationId: 'listModels',
  summary: 'List the models',
  description:
    'The active catalog (models of the configured providers, with those added in SVC_CONFIG and discovered from the providers), the models clients named that were passed through to their provider on this instance, and the routing aliases (`svc/auto`, ...). `svc.source` says where each came from.',
  tags: ['Models'],
  auth: bearer(),
  responses: { 200: jsonResponse('A `list` of `model` objects (`id`, `created`, `owned_by`, `svc.source`).') },
});

export const retrieveModelRoute = defineRoute({
  method: 'get',
  path: '/v1/models/{model}',
  operationId: 'retrieveModel',
  summary: 'Retrieve a model',
  tags: ['Models'],
  auth: bearer(),
  params: v.object({ model: v.pipe(v.string(), v.description('A model id (`provider/model`) or a routing alias.')) }),
  greedyParams: ['model'],
  responses: { 200: jsonResponse('The `model`.') },
  errors: [404],
});

export function registerModels(routes: RouteRegistry<AppEnv>, deps: InferenceDeps): void {
  // The mode these routes would run in (they run no pipeline stage): X-Svc-Intelligence-Mode on their answers.
  const mode = reportMode();
  routes.add(listModelsRoute, mode, (c) => {
    const data: WireModel[] = deps.gateway.catalog.list().map(toWire);
    for (const model of deps.gateway.passedThrough()) data.push(toWire(model));
    for (const id of routingAliases) data.push(aliasWire(id));
    return c.json({ object: 'list', data });
  });

  // Greedy, so an unencoded slug with a slash matches too; SDKs send it percent-encoded.
  routes.add(retrieveModelRoute, mode, (c) => {
    const id = decodeURIComponent(c.req.param('model') ?? '');
    if (routingAliases.includes(id)) return c.json(aliasWire(id));
    const { catalog } = deps.gateway;
    // Exact ids only: a listed slug, a fine-tune or snapshot under its full id, or a passed-through name.
    const variant = catalog.resolve(id);
    const model = catalog.get(id) ?? (variant?.id === id ? variant : undefined) ?? deps.gateway.passedThrough().find((m) => m.id === id);
    if (!model) throw notFound(`The model '${id}' does not exist or is not available.`, 'model');
    return c.json(toWire(model));
  });
}

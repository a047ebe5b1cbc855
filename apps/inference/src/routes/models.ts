import type { ModelInfo } from '@svc/catalog';
import { notFound } from '@svc/core';
import type { Hono } from 'hono';
import type { InferenceDeps } from '../deps.js';
import type { AppEnv } from '../env.js';

/** Routing aliases are model identifiers too (spec §Routing aliases). */
const aliases = ['svc/auto', 'svc/auto-quality', 'svc/auto-value', 'svc/auto-speed', 'svc/auto-safety'];
const aliasCreated = 1767225600; // 2026-01-01: when the alias set was published

interface WireModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

function toWire(model: ModelInfo): WireModel {
  return { id: model.id, object: 'model', created: model.created, owned_by: model.provider };
}

export function registerModels(app: Hono<AppEnv>, deps: InferenceDeps): void {
  app.get('/v1/models', (c) => {
    const data: WireModel[] = deps.gateway.catalog.list().map(toWire);
    for (const id of aliases) data.push({ id, object: 'model', created: aliasCreated, owned_by: 'svc' });
    return c.json({ object: 'list', data });
  });

  // `{.+}` so an unencoded slug with a slash matches too; SDKs send it percent-encoded.
  app.get('/v1/models/:id{.+}', (c) => {
    const id = decodeURIComponent(c.req.param('id'));
    if (aliases.includes(id)) return c.json({ id, object: 'model', created: aliasCreated, owned_by: 'svc' });
    const model = deps.gateway.catalog.get(id);
    if (!model) throw notFound(`The model '${id}' does not exist or is not available.`, 'model');
    return c.json(toWire(model));
  });
}

import type { MaskedProviderKey } from '@svc/byok';
import { notFound } from '@svc/core';
import type { RouteRegistry } from '@svc/http-kit';
import { adminOnly, defineRoute, jsonResponse } from '@svc/openapi';
import type { Context } from 'hono';
import * as v from 'valibot';
import { strictBody } from '../strict-body.js';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '@svc/http-kit';
import { orgIdParam, orgParams, pathOrg } from './admin-params.js';
import { readJson } from '../read-json.js';

/** Provider keys are printable ASCII without spaces (they travel in HTTP headers); surrounding whitespace is trimmed. */
const putSchema = strictBody({
  api_key: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(12, 'must be at least 12 characters'),
    v.maxLength(4096, 'at most 4096 characters'),
    v.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
  ),
});

/** A credential as the admin API shows it: never the secret, only a hint of its last 4 characters. */
function providerKeyToWire(orgId: string, key: MaskedProviderKey, deps: ControlPlaneDeps) {
  return {
    object: 'provider_key',
    org_id: orgId,
    provider: key.provider,
    key_hint: `...${key.last4}`,
    // The platform catalog has models of this provider, so requests can be routed to it with this key.
    routable: deps.catalog.list({ provider: key.provider }).length > 0,
    created_at: key.createdAt.toISOString(),
    updated_at: key.updatedAt.toISOString(),
  };
}

/** The provider in the path, or 400 naming `provider`. */
function pathProvider(c: Context<ControlEnv>, deps: ControlPlaneDeps): string {
  const supported = [...deps.byok.providerIds].sort().join(', ');
  const schema = v.object({ provider: v.pipe(v.string(), v.check((id) => deps.byok.supports(id), `unknown provider; use one of ${supported}`)) });
  return validate(schema, { provider: c.req.param('provider') ?? '' }).provider;
}

const providerParams = v.object({
  id: orgIdParam,
  provider: v.pipe(v.string(), v.description('A provider id (`openai`, `anthropic`, ...); an unknown one is a 400 listing the supported ones.')),
});
const keyAnswer = jsonResponse('The `provider_key`: a hint of the key (`key_hint`), never the key.');
const tags = ['Admin: provider keys (BYOK)'];

export const listProviderKeysRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/orgs/{id}/provider-keys',
  operationId: 'listProviderKeys',
  summary: "An organisation's own provider keys",
  tags,
  auth: adminOnly,
  params: orgParams,
  responses: { 200: jsonResponse('A `list` of `provider_key` objects.') },
  errors: [404],
});

export const putProviderKeyRoute = defineRoute({
  method: 'put',
  path: '/v1/admin/orgs/{id}/provider-keys/{provider}',
  operationId: 'putProviderKey',
  summary: 'Set the organisation\'s key for a provider',
  description: 'Sealed at rest (AES-256-GCM); requests of the organisation use it before the platform keys.',
  tags,
  auth: adminOnly,
  params: providerParams,
  body: { schema: putSchema, name: 'PutProviderKeyRequest' },
  responses: { 200: keyAnswer },
  errors: [400, 404, 413],
});

export const deleteProviderKeyRoute = defineRoute({
  method: 'delete',
  path: '/v1/admin/orgs/{id}/provider-keys/{provider}',
  operationId: 'deleteProviderKey',
  summary: "Remove the organisation's key for a provider",
  tags,
  auth: adminOnly,
  params: providerParams,
  responses: { 200: jsonResponse('`{object: "provider_key", org_id, provider, status: "deleted"}`.') },
  errors: [400, 404],
});

/** `/v1/admin/orgs/{id}/provider-keys[/{provider}]`: the organisation's own provider keys (BYOK), sealed at rest. */
export function registerAdminProviderKeys(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(listProviderKeysRoute, async (c) => {
    const org = await pathOrg(c, deps);
    return c.json({ object: 'list', data: (await deps.byok.list(org.id)).map((key) => providerKeyToWire(org.id, key, deps)) });
  });

  routes.add(putProviderKeyRoute, async (c) => {
    const provider = pathProvider(c, deps);
    const body = validate(putSchema, await readJson(c, deps.maxBodyBytes));
    const org = await pathOrg(c, deps);
    const { key } = await deps.byok.put(org.id, provider, body.api_key);
    return c.json(providerKeyToWire(org.id, key, deps));
  });

  routes.add(deleteProviderKeyRoute, async (c) => {
    const provider = pathProvider(c, deps);
    const org = await pathOrg(c, deps);
    if (!(await deps.byok.delete(org.id, provider))) throw notFound(`This organisation has no ${provider} key.`, 'provider');
    return c.json({ object: 'provider_key', org_id: org.id, provider, status: 'deleted' });
  });
}

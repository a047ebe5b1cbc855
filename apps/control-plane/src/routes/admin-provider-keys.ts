import type { MaskedProviderKey } from '@svc/byok';
import { notFound } from '@svc/core';
import { readJson } from '@svc/inference';
import type { Context, Hono } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '../validate.js';
import { pathOrg } from './admin-tools.js';

/** Provider keys are printable ASCII without spaces (they travel in HTTP headers); surrounding whitespace is trimmed. */
const putSchema = v.object({
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

/** `/v1/admin/orgs/{id}/provider-keys[/{provider}]`: the organisation's own provider keys (BYOK), sealed at rest. */
export function registerAdminProviderKeys(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.get('/v1/admin/orgs/:id/provider-keys', async (c) => {
    const org = await pathOrg(c, deps);
    return c.json({ object: 'list', data: (await deps.byok.list(org.id)).map((key) => providerKeyToWire(org.id, key, deps)) });
  });

  app.put('/v1/admin/orgs/:id/provider-keys/:provider', async (c) => {
    const provider = pathProvider(c, deps);
    const body = validate(putSchema, await readJson(c, deps.maxBodyBytes));
    const org = await pathOrg(c, deps);
    const { key } = await deps.byok.put(org.id, provider, body.api_key);
    return c.json(providerKeyToWire(org.id, key, deps));
  });

  app.delete('/v1/admin/orgs/:id/provider-keys/:provider', async (c) => {
    const provider = pathProvider(c, deps);
    const org = await pathOrg(c, deps);
    if (!(await deps.byok.delete(org.id, provider))) throw notFound(`This organisation has no ${provider} key.`, 'provider');
    return c.json({ object: 'provider_key', org_id: org.id, provider, status: 'deleted' });
  });
}

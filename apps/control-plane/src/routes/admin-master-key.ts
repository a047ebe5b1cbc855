import { isCurrentMasterKey } from '@svc/auth';
import { authorizationError } from '@svc/core';
import type { RouteRegistry } from '@svc/http-kit';
import { validate } from '@svc/http-kit';
import { adminOnly, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { readJson } from '../read-json.js';
import { strictBody } from '../strict-body.js';

const rotateSchema = strictBody({
  grace_seconds: v.optional(
    v.pipe(
      v.number('must be a number'),
      v.integer('must be a whole number of seconds'),
      v.minValue(0, 'must be 0..604800'),
      v.maxValue(604_800, 'must be 0..604800'),
      v.description('How long the previous master key keeps working; default SVC_MASTER_KEY_GRACE_SECS (0: revoked at once).'),
    ),
  ),
});

export const rotateMasterKeyRoute = defineRoute({
  method: 'post',
  path: '/v1/admin/master-key/rotate',
  operationId: 'rotateMasterKey',
  summary: 'Rotate the master key',
  description:
    'Issues a new master key (`key`, shown once) and supersedes the current one: revoked at once, or working for `grace_seconds`. Only the master key in force may call it (other admin keys: 403). Set SVC_MASTER_KEY to the new key before the next restart: a gateway started with a superseded key refuses to start once its grace has ended. What `pnpm svc master-key rotate` calls while a gateway holds the embedded store.',
  tags: ['Admin: API keys'],
  auth: adminOnly,
  body: { schema: rotateSchema, name: 'RotateMasterKeyRequest' },
  responses: { 201: jsonResponse('`{object: "master_key", id, key, superseded: [{id, expires_at}]}` (`expires_at` null: revoked).') },
  errors: [400, 403, 413],
});

/** `POST /v1/admin/master-key/rotate`: the master key rotates itself (DESIGN.md §3 leaves rotation to the operator). */
export function registerAdminMasterKey(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(rotateMasterKeyRoute, async (c) => {
    const body = validate(rotateSchema, await readJson(c, deps.maxBodyBytes));
    const current = await deps.db.keys.get(c.get('caller').keyId);
    if (!current || !isCurrentMasterKey(current)) throw authorizationError('forbidden', 'Only the master key in force may rotate the master key.');
    const rotated = await deps.authenticator.rotateMasterKey(body.grace_seconds === undefined ? undefined : body.grace_seconds * 1000);
    const superseded = rotated.superseded.map((key) => ({ id: key.id, expires_at: key.until?.toISOString() ?? null }));
    return c.json({ object: 'master_key', id: rotated.record.id, key: rotated.secret, superseded }, 201);
  });
}

import type { RouteRegistry } from '@svc/http-kit';
import { defineRoute, jsonResponse, session } from '@svc/openapi';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '@svc/http-kit';
import { passkeyToWire, registrationCompleteSchema } from './auth-wire.js';
import { readJson } from '../read-json.js';
import { removePasskey } from '../passkey-removal.js';

const tags = ['Dashboard sign-in'];
const challenge = '`{object: "challenge", public_key}`: the options for `navigator.credentials.create()`.';

export const listPasskeysRoute = defineRoute({
  method: 'get',
  path: '/v1/auth/passkeys',
  operationId: 'listPasskeys',
  summary: "The signed-in user's passkeys (metadata only)",
  tags,
  auth: session('any'),
  responses: { 200: jsonResponse('A `list` of `passkey` objects (`id`, `name`, `transports`, `created_at`, `last_used_at`); never the credential id or public key.') },
});

export const registerPasskeyBeginRoute = defineRoute({
  method: 'post',
  path: '/v1/auth/passkeys/register/begin',
  operationId: 'beginPasskeyRegistration',
  summary: 'Start registering a passkey: a WebAuthn challenge',
  description: 'Also from an enrollment session (AAL1): how a new user gets a first passkey.',
  tags,
  auth: session('any'),
  responses: { 200: jsonResponse(challenge) },
});

export const registerPasskeyCompleteRoute = defineRoute({
  method: 'post',
  path: '/v1/auth/passkeys/register/complete',
  operationId: 'completePasskeyRegistration',
  summary: 'Finish registering a passkey',
  tags,
  auth: session('any'),
  body: { schema: registrationCompleteSchema, name: 'PasskeyRegistrationRequest' },
  responses: { 201: jsonResponse('The `passkey`.') },
  errors: [400, 413],
});

export const deletePasskeyRoute = defineRoute({
  method: 'delete',
  path: '/v1/auth/passkeys/{id}',
  operationId: 'deletePasskey',
  summary: 'Remove one of your passkeys',
  description:
    "Every session of yours ends, on every instance (a lost device's too); this browser carries on in a re-issued session cookie, unless it signed in with the removed passkey or sent its session as a Bearer token (then it is signed out: `signed_out: true`).",
  tags,
  auth: session(),
  params: v.object({ id: v.pipe(v.string(), v.description('The passkey id.')) }),
  responses: { 200: jsonResponse('`{id, object: "passkey", deleted: true, signed_out}`.', { 'set-cookie': 'The re-issued (or cleared) session cookie.' }) },
  errors: [404],
});

/**
 * The caller's passkeys (spec document 2 `GET /`, mounted at `/v1/auth/passkeys`): listing
 * (metadata only), registration (also from an enrollment session, AAL1) and removal.
 */
export function registerAuthPasskeys(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(listPasskeysRoute, async (c) => {
    const passkeys = await deps.db.passkeys.listByUser(c.get('dashboard').user.id);
    return c.json({ object: 'list', data: passkeys.map(passkeyToWire) });
  });

  routes.add(registerPasskeyBeginRoute, async (c) => {
    const options = await deps.dashboardAuth.passkeys.registrationOptions(c.get('dashboard').user);
    return c.json({ object: 'challenge', public_key: options });
  });

  routes.add(registerPasskeyCompleteRoute, async (c) => {
    const body = validate(registrationCompleteSchema, await readJson(c, deps.maxBodyBytes));
    const { user } = c.get('dashboard');
    const count = (await deps.db.passkeys.listByUser(user.id)).length;
    const passkey = await deps.dashboardAuth.passkeys.verifyRegistration(user, body.response, body.name || `Passkey ${count + 1}`);
    return c.json(passkeyToWire(passkey), 201);
  });

  routes.add(deletePasskeyRoute, async (c) => {
    const id = c.req.param('id') ?? '';
    const { signedOut } = await removePasskey(c, deps, id);
    return c.json({ id, object: 'passkey', deleted: true, signed_out: signedOut });
  });
}

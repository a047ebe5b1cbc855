import { notFound } from '@svc/core';
import { readJson } from '@svc/inference';
import type { Hono } from 'hono';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { requireSession } from '../session.js';
import { validate } from '../validate.js';
import { passkeyToWire, registrationCompleteSchema } from './auth-wire.js';

/**
 * The caller's passkeys (spec document 2 `GET /`, mounted at `/v1/auth/passkeys`): listing
 * (metadata only), registration (also from an enrollment session, AAL1) and removal.
 */
export function registerAuthPasskeys(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  const enrolled = requireSession(deps, { aal: 'any' });

  app.get('/v1/auth/passkeys', enrolled, async (c) => {
    const passkeys = await deps.db.passkeys.listByUser(c.get('dashboard').user.id);
    return c.json({ object: 'list', data: passkeys.map(passkeyToWire) });
  });

  app.post('/v1/auth/passkeys/register/begin', enrolled, async (c) => {
    const options = await deps.dashboardAuth.passkeys.registrationOptions(c.get('dashboard').user);
    return c.json({ object: 'challenge', public_key: options });
  });

  app.post('/v1/auth/passkeys/register/complete', enrolled, async (c) => {
    const body = validate(registrationCompleteSchema, await readJson(c, deps.maxBodyBytes));
    const { user } = c.get('dashboard');
    const count = (await deps.db.passkeys.listByUser(user.id)).length;
    const passkey = await deps.dashboardAuth.passkeys.verifyRegistration(user, body.response, body.name || `Passkey ${count + 1}`);
    return c.json(passkeyToWire(passkey), 201);
  });

  app.delete('/v1/auth/passkeys/:id', requireSession(deps), async (c) => {
    const id = c.req.param('id');
    if (!(await deps.db.passkeys.delete(c.get('dashboard').user.id, id))) throw notFound(`No passkey '${id}'.`, 'id');
    return c.json({ id, object: 'passkey', deleted: true });
  });
}

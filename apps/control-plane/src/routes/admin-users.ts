import { readJson } from '@svc/inference';
import type { Hono } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '../validate.js';
import { dashboardUserToWire } from './auth-wire.js';

const createSchema = v.object({
  email: v.pipe(v.string('is required'), v.trim(), v.maxLength(254, 'at most 254 characters'), v.email('must be an e-mail address')),
  org_id: v.pipe(v.string('is required'), v.minLength(1, 'is required')),
  role: v.optional(v.picklist(['admin', 'member'], "must be 'admin' or 'member'"), 'member'),
});

/**
 * Dashboard users (admin API): creating one returns a one-time enrollment link (shown once)
 * that signs the user in at AAL1, only to register a passkey. A new link voids the previous one.
 */
export function registerAdminUsers(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.post('/v1/admin/users', async (c) => {
    const body = validate(createSchema, await readJson(c, deps.maxBodyBytes));
    const { user, enrollment } = await deps.dashboardAuth.accounts.create({ email: body.email, orgId: body.org_id, role: body.role });
    return c.json({ ...dashboardUserToWire(user), enrollment_url: enrollment.url }, 201);
  });

  app.get('/v1/admin/users', async (c) => {
    const users = await deps.db.dashboardUsers.list(c.req.query('org_id') || undefined);
    return c.json({ object: 'list', data: users.map(dashboardUserToWire) });
  });

  app.post('/v1/admin/users/:id/enrollment', async (c) => {
    const enrollment = await deps.dashboardAuth.accounts.issueEnrollment(c.req.param('id'));
    return c.json({ object: 'enrollment', user_id: c.req.param('id'), enrollment_url: enrollment.url, expires_at: enrollment.expiresAt.toISOString() }, 201);
  });
}

import { validate } from '@svc/http-kit';
import { issueToError } from '@svc/protocol';
import * as v from 'valibot';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { ControlPlaneDeps, ProviderDiscoveryView } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { storedModelBodySchema, storedModelId } from '../routes/admin-models.js';
import { field, optionalNumber } from './form-fields.js';
import { ModelsPage } from './page-models.js';
import { page } from './render.js';
import { requireDashboardAdmin } from './scope.js';

const priceFields = ['input_price_per_mtok', 'output_price_per_mtok', 'cached_input_price_per_mtok'] as const;

/** The form's filled fields as a stored-model body (blank = unchanged), checked by the admin API's schema. */
async function overrideBody(c: Context<ControlEnv>): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const name of priceFields) {
    const price = optionalNumber(name, await field(c, name), false);
    if (price !== null) body[name] = price;
  }
  for (const name of ['retires_at', 'replacement'] as const) {
    const text = await field(c, name);
    if (text !== '') body[name] = text;
  }
  return validate(storedModelBodySchema, body, issueToError);
}

/** The models page: every served model and its source; admins store entries and refresh discovery. */
export function registerModelPages(dash: Hono<ControlEnv>, deps: ControlPlaneDeps, signedIn: MiddlewareHandler<ControlEnv>): void {
  const modelsPage = async (c: Context<ControlEnv>, refreshed?: readonly ProviderDiscoveryView[]) => {
    const { user, session } = c.get('dashboard');
    const props = { models: deps.catalog.list(), stored: await deps.models.list(), csrf: session.csrfToken, canEdit: user.role === 'admin', ...(refreshed ? { refreshed } : {}) };
    return page(c, { title: 'Models', user, csrf: session.csrfToken, active: 'models', full: true }, <ModelsPage {...props} />);
  };

  dash.get('/models', signedIn, (c) => modelsPage(c));

  dash.post('/models', signedIn, async (c) => {
    const { user } = c.get('dashboard');
    requireDashboardAdmin(user);
    const { id } = validate(v.object({ id: storedModelId }), { id: await field(c, 'id') }, issueToError);
    await deps.models.put(id, await overrideBody(c), `dashboard:${user.id}`);
    return c.redirect('/dashboard/models', 303);
  });

  dash.post('/models/refresh', signedIn, async (c) => {
    requireDashboardAdmin(c.get('dashboard').user);
    return modelsPage(c, (await deps.models.refresh()).providers);
  });
}

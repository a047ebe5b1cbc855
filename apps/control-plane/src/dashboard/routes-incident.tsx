import { notFound } from '@svc/core';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { AlertsPage, loadAlerts } from './page-alerts.js';
import { CostsPage, costTagOf, loadCosts } from './page-costs.js';
import { RequestPage } from './page-request.js';
import { RequestsPage } from './page-requests.js';
import { parseRange } from './overview-data.js';
import { page } from './render.js';
import { loadRequestLog, parseRequestFilters } from './requests-data.js';
import { canSee, viewScope } from './scope.js';

/** The signed-in user, their session's CSRF token and the scope of `?org=`. */
async function scoped(c: Context<ControlEnv>, deps: ControlPlaneDeps) {
  const { user, session } = c.get('dashboard');
  return { user, csrf: session.csrfToken, scope: await viewScope(deps, user, c.req.query('org')) };
}

/**
 * The pages for incident work: the request log and a decision's detail, cost per key and per
 * model, alerts and SLOs. Members see their organisation; admins any, or the fleet.
 */
export function registerIncidentPages(dash: Hono<ControlEnv>, deps: ControlPlaneDeps, signedIn: MiddlewareHandler<ControlEnv>): void {
  dash.get('/requests', signedIn, async (c) => {
    const { user, csrf, scope } = await scoped(c, deps);
    const view = await loadRequestLog(deps, scope.org, parseRequestFilters((name) => c.req.query(name)));
    return page(c, { title: 'Requests', user, csrf, active: 'requests', full: true }, <RequestsPage view={view} org={scope.org} orgs={scope.orgs} />);
  });

  dash.get('/requests/:id', signedIn, async (c) => {
    const { user, session } = c.get('dashboard');
    const found = await deps.db.decisions.get(c.req.param('id'));
    // Another organisation's request is answered like an unknown one: a member learns nothing of it.
    const decision = found && canSee(user, found.orgId) ? found : undefined;
    if (!decision) throw notFound(`No routing decision for request '${c.req.param('id')}'.`, 'id');
    // The request's ledger figures: written with the decision, looked up a day either side.
    const around = { since: new Date(decision.createdAt.getTime() - 86_400_000), until: new Date(decision.createdAt.getTime() + 86_400_000) };
    const [org, ledger, keys] = await Promise.all([deps.db.orgs.get(decision.orgId), deps.db.requestLog.list({ ...around, orgId: decision.orgId, requestId: decision.requestId, limit: 1 }), deps.db.keys.list(decision.orgId)]);
    const props = { decision, orgName: org?.name ?? decision.orgId, entry: ledger.entries[0], keys };
    return page(c, { title: 'Routing decision', user, csrf: session.csrfToken, active: 'requests', full: true }, <RequestPage {...props} />);
  });

  dash.get('/costs', signedIn, async (c) => {
    const { user, csrf, scope } = await scoped(c, deps);
    const view = await loadCosts(deps, scope.org, parseRange(c.req.query('range')), costTagOf(c.req.query('tag')));
    return page(c, { title: 'Costs', user, csrf, active: 'costs', full: true }, <CostsPage view={view} org={scope.org} orgs={scope.orgs} />);
  });

  dash.get('/alerts', signedIn, async (c) => {
    const { user, csrf, scope } = await scoped(c, deps);
    const view = await loadAlerts(deps, scope.org);
    return page(c, { title: 'Alerts and SLOs', user, csrf, active: 'alerts', full: true }, <AlertsPage view={view} org={scope.org} orgs={scope.orgs} />);
  });
}

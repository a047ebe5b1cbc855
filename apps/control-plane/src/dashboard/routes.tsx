import { defaultKeyScopes, invalidRequest, isGatewayError, notFound, toGatewayError } from '@svc/core';
import type { RouteRegistry } from '@svc/http-kit';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { clearSessionCookie } from '../session-cookie.js';
import { readSession, requireSession } from '../session.js';
import { removePasskey } from '../passkey-removal.js';
import { registerDashboardAssets } from './assets.js';
import { EnrollPage, LoginPage, PasskeysPage } from './page-auth.js';
import { KeysPage } from './page-keys.js';
import { OrgPage } from './page-org.js';
import { OverviewPage } from './page-overview.js';
import { loadOverview, parseRange } from './overview-data.js';
import { page, securityHeaders } from './render.js';
import { field, optionalNumber } from './form-fields.js';
import { registerGuardrailPages } from './routes-guardrails.js';
import { registerMcpServerPages } from './routes-mcp-servers.js';
import { registerIncidentPages } from './routes-incident.js';
import { registerModelPages } from './routes-models.js';
import { registerQualityPages } from './routes-quality.js';
import { requireDashboardAdmin, requireOrgAccess, viewScope } from './scope.js';

/** Why the dashboard is not in the control plane's API description (the registry records it). */
export const dashboardOutsideApi =
  'Server-rendered HTML pages and their form posts for browsers: they answer HTML and 303 redirects (to sign in, after a form), authenticate with the session cookie and CSRF form field, and are not API operations. The API they use is /v1/auth/* and the admin API, which are described.';

/** The pages' Hono app: security headers on every answer, a 64 KiB body limit, errors as an HTML page. */
function dashboardApp(deps: ControlPlaneDeps): Hono<ControlEnv> {
  const dash = new Hono<ControlEnv>();
  dash.use(async (c, next) => {
    await next();
    // Every response gets the security headers; `no-store` only where the route chose no caching of its own (the assets do).
    for (const [name, value] of Object.entries(securityHeaders)) if (name !== 'cache-control' || !c.res.headers.has(name)) c.res.headers.set(name, value);
  });
  dash.use(bodyLimit({ maxSize: 64 * 1024 }));
  dash.onError(async (error, c) => {
    const gateway = isGatewayError(error) ? error : toGatewayError(error);
    if (!isGatewayError(error)) deps.logger.error({ err: error }, 'dashboard page failed');
    const response = await page(c, { title: 'Something went wrong' }, <p class="status error">{gateway.message}</p>, gateway.status as 400);
    for (const [name, value] of Object.entries(securityHeaders)) response.headers.set(name, value);
    return response;
  });
  registerDashboardAssets(dash);
  return dash;
}

type Guard = MiddlewareHandler<ControlEnv>;

/** Sign-in, enrollment, sign-out and the passkeys page (which an enrolling user reaches at AAL1). */
function registerSessionPages(dash: Hono<ControlEnv>, deps: ControlPlaneDeps, guards: { signedIn: Guard; enrolled: Guard }): void {
  const { signedIn, enrolled } = guards;
  dash.get('/login', async (c) => {
    if ((await readSession(c, deps))?.session.aal === 'aal2') return c.redirect('/dashboard', 303);
    return page(c, { title: 'Sign in' }, <LoginPage />);
  });
  dash.get('/enroll', (c) => page(c, { title: 'Set up your passkey' }, <EnrollPage />));

  dash.post('/logout', enrolled, async (c) => {
    await deps.dashboardAuth.sessions.revoke(c.get('dashboard').token);
    clearSessionCookie(c, deps.dashboardAuth.rp);
    return c.redirect('/dashboard/login', 303);
  });

  dash.get('/passkeys', enrolled, async (c) => {
    const { user, session } = c.get('dashboard');
    const passkeys = await deps.db.passkeys.listByUser(user.id);
    const full = session.aal === 'aal2';
    return page(c, { title: 'Passkeys', user, csrf: session.csrfToken, active: 'passkeys', full }, <PasskeysPage passkeys={passkeys} csrf={session.csrfToken} enrollment={!full} />);
  });

  dash.post('/passkeys/:id/delete', signedIn, async (c) => {
    const { signedOut } = await removePasskey(c, deps, c.req.param('id'));
    return c.redirect(signedOut ? '/dashboard/login' : '/dashboard/passkeys', 303);
  });
}

/** The API keys page, issuing a key (its secret shown once) and revoking one. */
function registerKeyPages(dash: Hono<ControlEnv>, deps: ControlPlaneDeps, signedIn: Guard): void {
  const keysPage = async (c: Context<ControlEnv>, orgQuery: string | undefined, created?: { id: string; secret: string }) => {
    const { user, session } = c.get('dashboard');
    const scope = await viewScope(deps, user, orgQuery);
    const keys = await deps.db.keys.list(scope.org?.id);
    return page(c, { title: 'API keys', user, csrf: session.csrfToken, active: 'keys', full: true }, <KeysPage keys={keys} org={scope.org} orgs={scope.orgs} csrf={session.csrfToken} {...(created ? { created } : {})} />, created ? 201 : 200);
  };

  dash.get('/keys', signedIn, (c) => keysPage(c, c.req.query('org')));

  dash.post('/keys', signedIn, async (c) => {
    const { user } = c.get('dashboard');
    const orgId = (await field(c, 'org_id')) || user.orgId;
    requireOrgAccess(user, orgId);
    const org = await deps.db.orgs.get(orgId);
    if (!org) throw notFound(`No organisation '${orgId}'.`, 'org_id');
    const name = await field(c, 'name');
    if (name.length > 100) throw invalidRequest('name: at most 100 characters.', 'name');
    const days = optionalNumber('expires_in_days', await field(c, 'expires_in_days'), true);
    if (days !== null && (days < 1 || days > 3650)) throw invalidRequest('expires_in_days must be 1..3650.', 'expires_in_days');
    // The dashboard never issues admin keys: the admin API (with an admin key) does.
    const { record, secret } = await deps.authenticator.issue({ orgId: org.id, name: name || null, scopes: defaultKeyScopes, expiresAt: days === null ? null : new Date(Date.now() + days * 86_400_000) });
    return keysPage(c, user.role === 'admin' ? org.id : undefined, { id: record.id, secret });
  });

  dash.post('/keys/:id/revoke', signedIn, async (c) => {
    const { user } = c.get('dashboard');
    const key = await deps.db.keys.get(c.req.param('id'));
    if (!key) throw notFound(`No API key '${c.req.param('id')}'.`, 'id');
    requireOrgAccess(user, key.orgId);
    await deps.authenticator.revoke(key.id);
    return c.redirect(user.role === 'admin' ? `/dashboard/keys?org=${key.orgId}` : '/dashboard/keys', 303);
  });
}

/** The overview and the organisation's limits. */
function registerOrgPages(dash: Hono<ControlEnv>, deps: ControlPlaneDeps, signedIn: Guard): void {
  dash.get('/', signedIn, async (c) => {
    const { user, session } = c.get('dashboard');
    const scope = await viewScope(deps, user, c.req.query('org'));
    const overview = await loadOverview(deps, { orgId: scope.org?.id, range: parseRange(c.req.query('range')), userId: user.id });
    return page(c, { title: 'Overview', user, csrf: session.csrfToken, active: 'overview', full: true }, <OverviewPage overview={overview} org={scope.org} orgs={scope.orgs} />);
  });

  dash.get('/org', signedIn, async (c) => {
    const { user, session } = c.get('dashboard');
    const scope = await viewScope(deps, user, c.req.query('org') ?? user.orgId);
    const org = scope.org!;
    const spend = await deps.limiter.spend(org);
    return page(c, { title: 'Limits', user, csrf: session.csrfToken, active: 'org', full: true }, <OrgPage org={org} orgs={scope.orgs} spend={spend} csrf={session.csrfToken} canEdit={user.role === 'admin'} />);
  });

  dash.post('/org/:id', signedIn, async (c) => {
    requireDashboardAdmin(c.get('dashboard').user);
    const patch = {
      rpmLimit: optionalNumber('rpm_limit', await field(c, 'rpm_limit'), true),
      tpmLimit: optionalNumber('tpm_limit', await field(c, 'tpm_limit'), true),
      monthlyBudgetUsd: optionalNumber('monthly_budget_usd', await field(c, 'monthly_budget_usd'), false),
      tokenQuota: optionalNumber('token_quota', await field(c, 'token_quota'), true),
    };
    const org = await deps.db.orgs.update(c.req.param('id'), patch);
    if (!org) throw notFound(`No organisation '${c.req.param('id')}'.`, 'id');
    await deps.authenticator.orgChanged(org.id);
    return c.redirect(`/dashboard/org?org=${org.id}`, 303);
  });
}

/**
 * The dashboard: server-rendered pages (Hono JSX, SVG charts) under /dashboard, mounted outside
 * the API description. Pages need a passkey session (AAL2) except sign-in, enrollment and the
 * passkeys page; form posts need the session's CSRF token. Members see and act on their own
 * organisation only; admins on any.
 */
export function registerDashboard(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  const dash = dashboardApp(deps);
  const signedIn = requireSession(deps, { onMissing: 'redirect' });
  const enrolled = requireSession(deps, { aal: 'any', onMissing: 'redirect' });
  registerSessionPages(dash, deps, { signedIn, enrolled });
  registerOrgPages(dash, deps, signedIn);
  registerKeyPages(dash, deps, signedIn);
  registerGuardrailPages(dash, deps, signedIn);
  registerMcpServerPages(dash, deps, signedIn);
  registerIncidentPages(dash, deps, signedIn);
  registerModelPages(dash, deps, signedIn);
  registerQualityPages(dash, deps, signedIn);
  routes.mountOutsideApi('/dashboard', dash, dashboardOutsideApi);
}

import { readCredential, requireAdmin, requireScope } from '@svc/auth';
import { type Caller, requestId } from '@svc/core';
import { RouteRegistry, notFoundHandler, onError, recordRequest, registerOpenApi, registerProbes } from '@svc/inference';
import { Hono } from 'hono';
import { registerDashboard } from './dashboard/routes.js';
import { bearer } from './bearer.js';
import type { ControlPlaneDeps } from './deps.js';
import type { ControlEnv } from './env.js';
import { registerAdminKeys } from './routes/admin-keys.js';
import { registerAdminOrgs } from './routes/admin-orgs.js';
import { registerAdminProviderKeys } from './routes/admin-provider-keys.js';
import { registerRoutingDecisions } from './routes/admin-routing-decisions.js';
import { registerRoutingDiversity } from './routes/admin-routing-diversity.js';
import { registerRoutingDrift } from './routes/admin-routing-drift.js';
import { registerRoutingGate } from './routes/admin-routing-gate.js';
import { registerRoutingMatrix } from './routes/admin-routing-matrix.js';
import { registerRoutingPolicy } from './routes/admin-routing-policy.js';
import { registerAdminTools } from './routes/admin-tools.js';
import { registerAdminUsers } from './routes/admin-users.js';
import { registerAuthLogin } from './routes/auth-login.js';
import { registerAuthPasskeys } from './routes/auth-passkeys.js';
import { registerAuthSession } from './routes/auth-session.js';
import { registerAlertHistory } from './routes/alerts-history.js';
import { registerAdminToolPolicy } from './routes/admin-tools-policy.js';
import { registerClassifyComplexity } from './routes/classify-complexity.js';
import { registerBreakers } from './routes/observability-breakers.js';
import { registerCache } from './routes/observability-cache.js';
import { registerHedging } from './routes/observability-hedging.js';
import { registerBenchmarks } from './routes/observability-benchmarks.js';
import { registerCraneStats } from './routes/observability-crane.js';
import { registerDegradation } from './routes/observability-degradation.js';
import { registerFlags } from './routes/observability-flags.js';
import { registerMetricsSummary } from './routes/observability-metrics-summary.js';
import { registerMetricsSwc } from './routes/observability-metrics-swc.js';
import { registerOnboardingNextStep } from './routes/onboarding-next-step.js';
import { registerOnboardingProgress } from './routes/onboarding-progress.js';
import { registerOutputConfig } from './routes/output-config.js';
import { registerSlo } from './routes/slo.js';
import { registerAuthorizationServerMetadata } from './routes/well-known-authorization-server.js';
import { registerProtectedResourceMetadata } from './routes/well-known-protected-resource.js';

/** The scope of the control plane's Bearer operations (DESIGN.md §3). */
const observer = (caller: Caller) => requireScope(caller, 'observability:read');

/**
 * The control plane (spec document 2) and the admin API, mounted as DESIGN.md §3 says. Every
 * route is registered from its descriptor, with the auth it declares: public, a key with
 * `observability:read`, or the admin role.
 */
export function createControlPlaneApp(deps: ControlPlaneDeps): Hono<ControlEnv> {
  const app = new Hono<ControlEnv>();
  app.onError(onError(deps.logger));
  app.notFound(notFoundHandler);
  app.use(recordRequest(deps.metrics));
  const routes = new RouteRegistry(app, {
    authenticate: async (c) => {
      c.set('requestId', requestId());
      const caller = await deps.authenticator.authenticate(readCredential(c.req.header('authorization')));
      c.set('caller', caller);
      return caller;
    },
    openapi: {
      title: 'svc gateway: control plane',
      version: '1',
      description: 'Health, observability, routing intelligence and the admin API (spec document 2 and DESIGN.md §3). Generated from the routes this instance serves.',
    },
  });
  registerProbes(routes, deps);
  registerOpenApi(routes);
  registerClassifyComplexity(routes, deps);
  registerBreakers(routes, deps);
  registerHedging(routes, deps);
  registerCache(routes, deps);
  registerAdminOrgs(routes, deps);
  registerAdminKeys(routes, deps);
  registerAdminProviderKeys(routes, deps);
  registerAdminTools(routes, deps);
  registerAdminToolPolicy(routes, deps);
  registerRoutingDecisions(routes, deps);
  registerRoutingDiversity(routes, deps);
  registerRoutingDrift(routes, deps);
  registerRoutingGate(routes, deps);
  registerRoutingPolicy(routes, deps);
  registerRoutingMatrix(routes, deps);
  // Merged from main, not on the registry yet: their own auth middlewares as on main.
  // Dashboard sign-in: public ceremonies and session-authenticated calls (never API keys).
  registerAuthLogin(app, deps);
  registerAuthSession(app, deps);
  registerAuthPasskeys(app, deps);
  registerDashboard(app, deps);
  registerAuthorizationServerMetadata(app, deps);
  registerProtectedResourceMetadata(app, deps);
  app.use('/v1/admin/users/*', bearer(deps, requireAdmin));
  app.use('/v1/observability/*', bearer(deps, observer));
  app.use('/v1/slo/*', bearer(deps, observer));
  app.use('/v1/alerts/*', bearer(deps, observer));
  app.use('/v1/onboarding/*', bearer(deps, observer));
  // GET needs observability:read, PUT settings:write: each route checks its own.
  app.use('/v1/output/*', bearer(deps));
  registerMetricsSummary(app, deps);
  registerMetricsSwc(app, deps);
  registerBenchmarks(app, deps);
  registerCraneStats(app, deps);
  registerDegradation(app, deps);
  registerFlags(app, deps);
  registerAdminUsers(app, deps);
  registerSlo(app, deps);
  registerAlertHistory(app, deps);
  registerOutputConfig(app, deps);
  registerOnboardingProgress(app, deps);
  registerOnboardingNextStep(app, deps);
  return app;
}

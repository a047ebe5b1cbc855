import { RouteRegistry, apiHeaders, notFoundHandler, onError, recordRequest, refuseMalformedUrl, registerOpenApi, registerProbes } from '@svc/http-kit';
import { Hono } from 'hono';
import { authenticateKey } from './authenticate-key.js';
import { registerDashboard } from './dashboard/routes.js';
import type { ControlPlaneDeps } from './deps.js';
import type { ControlEnv } from './env.js';
import { traceRequests, withTracedDb } from './request-trace.js';
import { requireSession } from './session.js';
import { registerAdminBackup } from './routes/admin-backup.js';
import { registerAdminKeys } from './routes/admin-keys.js';
import { registerAdminLedger } from './routes/admin-ledger.js';
import { registerAdminLegacyMemory } from './routes/admin-legacy-memory.js';
import { registerAdminMasterKey } from './routes/admin-master-key.js';
import { registerAdminMcpServers } from './routes/admin-mcp-servers.js';
import { registerAdminModels } from './routes/admin-models.js';
import { registerAdminMemory } from './routes/admin-memory.js';
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
import { registerAdminShadowJudging } from './routes/admin-shadow-judging.js';
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

type ControlRoutes = RouteRegistry<ControlEnv>;

/**
 * The control plane (spec document 2) and the admin API, mounted as DESIGN.md §3 says. Every
 * route is registered from its descriptor, with the auth it declares: public, a key with a
 * scope (`observability:read`, `settings:write`), the admin role, or a dashboard session
 * (`/v1/auth/*`, with CSRF on state-changing cookie requests). The dashboard's HTML pages are
 * mounted outside the API description, with their own session middleware. With tracing on, every
 * request is a trace and each call of a relational repository a span of it (request-trace.ts).
 */
export function createControlPlaneApp(given: ControlPlaneDeps): Hono<ControlEnv> {
  const deps = withTracedDb(given);
  const app = new Hono<ControlEnv>();
  app.onError(onError(deps.logger));
  app.notFound(notFoundHandler);
  if (deps.tracing.enabled) app.use(traceRequests(deps.tracing));
  app.use(recordRequest(deps.metrics));
  app.use(apiHeaders());
  app.use(refuseMalformedUrl());
  const routes = new RouteRegistry(app, {
    authenticate: authenticateKey(deps),
    session: (aal) => requireSession(deps, { aal }),
    openapi: {
      title: 'svc gateway: control plane',
      version: '1',
      description:
        'Health, observability, routing intelligence, SLOs and alerts, output config, onboarding, discovery, dashboard sign-in and the admin API (spec document 2 and DESIGN.md §3). Generated from the routes this instance serves; the dashboard\'s HTML pages under /dashboard are not API operations and are not described.',
      session: { cookieName: deps.dashboardAuth.rp.cookieName },
    },
  });
  registerServiceRoutes(routes, deps);
  registerAdminAndRoutingRoutes(routes, deps);
  return app;
}

/** Probes, discovery, sign-in and the observability and settings routes (spec document 2). */
function registerServiceRoutes(routes: ControlRoutes, deps: ControlPlaneDeps): void {
  registerProbes(routes, deps);
  registerOpenApi(routes);
  registerAuthorizationServerMetadata(routes, deps);
  registerProtectedResourceMetadata(routes, deps);
  registerClassifyComplexity(routes, deps);
  registerAuthLogin(routes, deps);
  registerAuthSession(routes, deps);
  registerAuthPasskeys(routes, deps);
  registerBreakers(routes, deps);
  registerHedging(routes, deps);
  registerCache(routes, deps);
  registerMetricsSummary(routes, deps);
  registerMetricsSwc(routes, deps);
  registerBenchmarks(routes, deps);
  registerCraneStats(routes, deps);
  registerDegradation(routes, deps);
  registerFlags(routes, deps);
  registerSlo(routes, deps);
  registerAlertHistory(routes, deps);
  registerOutputConfig(routes, deps);
  registerOnboardingProgress(routes, deps);
  registerOnboardingNextStep(routes, deps);
}

/** The admin API (DESIGN.md §3), the routing-intelligence routes and the dashboard. */
function registerAdminAndRoutingRoutes(routes: ControlRoutes, deps: ControlPlaneDeps): void {
  registerAdminOrgs(routes, deps);
  registerAdminMemory(routes, deps);
  registerAdminLegacyMemory(routes, deps);
  registerAdminKeys(routes, deps);
  registerAdminLedger(routes, deps);
  registerAdminMasterKey(routes, deps);
  registerAdminUsers(routes, deps);
  registerAdminProviderKeys(routes, deps);
  registerAdminMcpServers(routes, deps);
  registerAdminModels(routes, deps);
  registerAdminBackup(routes, deps);
  registerAdminTools(routes, deps);
  registerAdminToolPolicy(routes, deps);
  registerAdminShadowJudging(routes, deps);
  registerRoutingDecisions(routes, deps);
  registerRoutingDiversity(routes, deps);
  registerRoutingDrift(routes, deps);
  registerRoutingGate(routes, deps);
  registerRoutingPolicy(routes, deps);
  registerRoutingMatrix(routes, deps);
  registerDashboard(routes, deps);
}

import { requireAdmin, requireScope } from '@svc/auth';
import type { Caller } from '@svc/core';
import { notFoundHandler, onError, recordRequest, registerProbes } from '@svc/inference';
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

/** The control plane (spec document 2) and the admin API, mounted as DESIGN.md §3 says. */
export function createControlPlaneApp(deps: ControlPlaneDeps): Hono<ControlEnv> {
  const app = new Hono<ControlEnv>();
  app.onError(onError(deps.logger));
  app.notFound(notFoundHandler);
  app.use(recordRequest(deps.metrics));
  registerProbes(app, deps);
  // Public (spec document 2): pure compute, outside every auth middleware; the body limit still applies.
  registerClassifyComplexity(app, deps);
  // Dashboard sign-in: public ceremonies and session-authenticated calls (never API keys).
  registerAuthLogin(app, deps);
  registerAuthSession(app, deps);
  registerAuthPasskeys(app, deps);
  registerDashboard(app, deps);
  registerAuthorizationServerMetadata(app, deps);
  registerProtectedResourceMetadata(app, deps);
  app.use('/v1/admin/*', bearer(deps, requireAdmin));
  app.use('/v1/observability/*', bearer(deps, observer));
  app.use('/v1/slo/*', bearer(deps, observer));
  app.use('/v1/alerts/*', bearer(deps, observer));
  app.use('/v1/onboarding/*', bearer(deps, observer));
  // GET needs observability:read, PUT settings:write: each route checks its own.
  app.use('/v1/output/*', bearer(deps));
  registerBreakers(app, deps);
  registerHedging(app, deps);
  registerCache(app, deps);
  registerMetricsSummary(app, deps);
  registerMetricsSwc(app, deps);
  registerBenchmarks(app, deps);
  registerCraneStats(app, deps);
  registerDegradation(app, deps);
  registerFlags(app, deps);
  registerAdminOrgs(app, deps);
  registerAdminKeys(app, deps);
  registerAdminUsers(app, deps);
  registerAdminProviderKeys(app, deps);
  registerAdminTools(app, deps);
  registerAdminToolPolicy(app, deps);
  registerRoutingDecisions(app, deps);
  registerRoutingDiversity(app, deps);
  registerRoutingDrift(app, deps);
  registerRoutingGate(app, deps);
  registerRoutingPolicy(app, deps);
  registerRoutingMatrix(app, deps);
  registerSlo(app, deps);
  registerAlertHistory(app, deps);
  registerOutputConfig(app, deps);
  registerOnboardingProgress(app, deps);
  registerOnboardingNextStep(app, deps);
  return app;
}

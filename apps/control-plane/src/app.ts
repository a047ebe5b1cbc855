import { readCredential } from '@svc/auth';
import { requestId } from '@svc/core';
import { RouteRegistry, notFoundHandler, onError, recordRequest, registerOpenApi, registerProbes } from '@svc/inference';
import { Hono } from 'hono';
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
import { registerAdminToolPolicy } from './routes/admin-tools-policy.js';
import { registerClassifyComplexity } from './routes/classify-complexity.js';
import { registerBreakers } from './routes/observability-breakers.js';
import { registerCache } from './routes/observability-cache.js';
import { registerHedging } from './routes/observability-hedging.js';

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
  return app;
}

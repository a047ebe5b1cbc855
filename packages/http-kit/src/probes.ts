import { defineRoute, jsonResponse, publicAccess } from '@svc/openapi';
import type { Metrics } from '@svc/telemetry';
import type { Env } from 'hono';
import { checkMetricsAccess } from './metrics-access.js';
import type { RouteRegistry } from './route-registry.js';

export const healthRoute = defineRoute({
  method: 'get',
  path: '/health',
  operationId: 'getHealth',
  summary: 'Liveness',
  tags: ['Operations'],
  auth: publicAccess,
  responses: { 200: jsonResponse('`{"status": "ok"}` while the process serves.') },
});

export const readyRoute = defineRoute({
  method: 'get',
  path: '/ready',
  operationId: 'getReadiness',
  summary: 'Readiness',
  description: 'The shared stores are checked: PostgreSQL or Redis down is 503 `not_ready`; the vector store down is 200 `degraded`.',
  tags: ['Operations'],
  auth: publicAccess,
  responses: {
    200: jsonResponse('Ready (or degraded), with each dependency.'),
    503: jsonResponse('Not ready, with each dependency.'),
  },
});

export const metricsRoute = defineRoute({
  method: 'get',
  path: '/metrics',
  operationId: 'getMetrics',
  summary: 'Prometheus metrics of this instance',
  description:
    'Spend per model and traffic per route, so not public: with SVC_METRICS_TOKEN set, callers send `Authorization: Bearer <token>`; without it, only loopback callers are answered. METRICS_PORT serves the same text on a port of its own.',
  tags: ['Operations'],
  auth: publicAccess,
  responses: { 200: { description: 'The Prometheus text exposition.', content: { 'text/plain': null } } },
  errors: [401, 403],
});

/** One backend as `/ready` reports it. */
export interface DependencyStatus {
  status: 'up' | 'down';
  /** Which implementation serves it (`postgres`, `pglite`, `redis`, `in_process`). */
  backend: string;
  required: boolean;
  latency_ms?: number;
}

/** `ReadinessResponse` of the control-plane spec. */
export interface Readiness {
  ready: boolean;
  status: 'ready' | 'degraded' | 'not_ready';
  /** `encoder`: the local sentence encoder (`SVC_SENTENCE_ENCODER`) memory and the semantic stages share. */
  dependencies: { database: DependencyStatus; kv: DependencyStatus; vector_db: DependencyStatus; encoder: DependencyStatus };
}

/** What the probes read: the app's readiness check, its metrics registry and SVC_METRICS_TOKEN. */
export interface ProbeDeps {
  /** The dependency checks; `ready: false` answers 503, the whole object is the body. */
  readiness(): Promise<{ ready: boolean }>;
  metrics: Pick<Metrics, 'metrics' | 'contentType'>;
  /** SVC_METRICS_TOKEN: without it `/metrics` answers loopback callers only. */
  metricsToken?: string;
}

/** `/health` (liveness), `/ready` (dependency checks), `/metrics` (Prometheus text); public. Both apps mount them. */
export function registerProbes<E extends Env>(routes: RouteRegistry<E>, deps: ProbeDeps): void {
  routes.add(healthRoute, (c) => c.json({ status: 'ok' }));
  routes.add(readyRoute, async (c) => {
    const readiness = await deps.readiness();
    return c.json(readiness, readiness.ready ? 200 : 503);
  });
  routes.add(metricsRoute, async (c) => {
    checkMetricsAccess(c, deps.metricsToken);
    return c.body(await deps.metrics.metrics(), 200, { 'content-type': deps.metrics.contentType });
  });
}

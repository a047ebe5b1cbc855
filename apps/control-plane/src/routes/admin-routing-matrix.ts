import { isGatewayError } from '@svc/core';
import type { RouteRegistry } from '@svc/http-kit';
import { adminOnly, defineRoute, jsonResponse } from '@svc/openapi';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { createMatrixStore } from './admin-routing-matrix-store.js';

export const matrixRoute = defineRoute({
  method: 'get',
  path: '/v1/admin/routing/matrix',
  operationId: 'getCapabilityMatrix',
  summary: 'Capability matrix health',
  description: 'The last computed matrix (computed on the first call): capabilities, limits and prices of the chat models joined with breaker state and recent outcomes.',
  tags: ['Admin: routing reports'],
  auth: adminOnly,
  responses: { 200: jsonResponse('`CapabilityMatrixHealth` (`capability_matrix`).') },
});

export const matrixRefreshRoute = defineRoute({
  method: 'post',
  path: '/v1/admin/routing/matrix/refresh',
  operationId: 'refreshCapabilityMatrix',
  summary: 'Recompute the capability matrix',
  description: 'One refresh at a time across the instances sharing the kv: another one in progress is a 503 (`matrix_refresh_in_progress`, with `retry-after`).',
  tags: ['Admin: routing reports'],
  auth: adminOnly,
  responses: {
    200: jsonResponse('`MatrixRefreshResponse` with `ok: true`.'),
    500: jsonResponse('`MatrixRefreshResponse` with `ok: false` and `error_detail` when a step failed.'),
  },
  errors: [503],
});

/**
 * `GET /matrix` → `CapabilityMatrixHealth` and `POST /matrix/refresh` → `MatrixRefreshResponse`
 * (spec document 2), mounted under /v1/admin/routing.
 *
 * GET serves the last computed matrix (computing it on the first call). POST recomputes it: 200
 * `{ok: true, ...}`; 500 `{ok: false, error_detail}` when a step fails; 503 in the error shape
 * (`matrix_refresh_in_progress`, with `retry-after`) while another refresh runs on any instance
 * sharing the kv.
 */
export function registerRoutingMatrix(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  const store = createMatrixStore(deps);

  routes.add(matrixRoute, async (c) => c.json({ object: 'capability_matrix', ...(await store.current()) }));

  routes.add(matrixRefreshRoute, async (c) => {
    const started = performance.now();
    const duration = () => Math.round(performance.now() - started);
    try {
      const matrix = await store.refresh();
      return c.json({ object: 'matrix_refresh', ok: true, error_detail: null, refreshed_at: matrix.refreshed_at, duration_ms: duration(), totals: matrix.totals });
    } catch (error) {
      if (isGatewayError(error)) throw error;
      deps.logger.error({ err: error, request_id: c.get('requestId') }, 'capability matrix refresh failed');
      const detail = error instanceof Error ? error.message : String(error);
      return c.json({ object: 'matrix_refresh', ok: false, error_detail: detail, refreshed_at: null, duration_ms: duration(), totals: null }, 500);
    }
  });
}

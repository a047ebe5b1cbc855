import { isGatewayError } from '@svc/core';
import type { Hono } from 'hono';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { createMatrixStore } from './admin-routing-matrix-store.js';

/**
 * `GET /matrix` → `CapabilityMatrixHealth` and `POST /matrix/refresh` → `MatrixRefreshResponse`
 * (spec document 2), mounted under /v1/admin/routing.
 *
 * GET serves the last computed matrix (computing it on the first call). POST recomputes it: 200
 * `{ok: true, ...}`; 500 `{ok: false, error_detail}` when a step fails; 503 in the error shape
 * (`matrix_refresh_in_progress`, with `retry-after`) while another refresh runs on any instance
 * sharing the kv.
 */
export function registerRoutingMatrix(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  const store = createMatrixStore(deps);

  app.get('/v1/admin/routing/matrix', async (c) => c.json({ object: 'capability_matrix', ...(await store.current()) }));

  app.post('/v1/admin/routing/matrix/refresh', async (c) => {
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

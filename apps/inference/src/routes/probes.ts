import type { Env, Hono } from 'hono';
import type { InferenceDeps } from '../deps.js';

/** `/health` (liveness), `/ready` (dependency checks), `/metrics` (Prometheus text); public. Both apps mount them. */
export function registerProbes<E extends Env>(app: Hono<E>, deps: Pick<InferenceDeps, 'readiness' | 'metrics'>): void {
  app.get('/health', (c) => c.json({ status: 'ok' }));
  app.get('/ready', async (c) => {
    const readiness = await deps.readiness();
    return c.json(readiness, readiness.ready ? 200 : 503);
  });
  app.get('/metrics', async (c) => c.body(await deps.metrics.metrics(), 200, { 'content-type': deps.metrics.contentType }));
}

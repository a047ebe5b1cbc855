import { requireAdmin } from '@svc/auth';
import { readJson } from '@svc/inference';
import type { Hono } from 'hono';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '../validate.js';

const configSchema = v.object({ enabled_by_default: v.boolean('must be true or false') });

/** `GET /hedging/stats`, `POST /hedging/config` (spec document 2), mounted under /v1/observability. */
export function registerHedging(app: Hono<ControlEnv>, deps: ControlPlaneDeps): void {
  app.get('/v1/observability/hedging/stats', (c) => {
    const stats = deps.hedging.stats.snapshot();
    return c.json({
      enabled_by_default: deps.hedging.config.enabledByDefault,
      requests: stats.requests,
      fired: stats.fired,
      secondary_wins: stats.secondaryWins,
      cancelled: stats.cancelled,
      both_failed: stats.bothFailed,
      // What a hedge waits for, per model: this instance's recent p95 (null until enough samples).
      latency: deps.hedging.latency.snapshot().map((one) => ({
        model: one.key,
        samples: one.samples,
        p50_ms: one.p50 === undefined ? null : Math.round(one.p50),
        hedge_after_ms: one.pHedge === undefined ? null : Math.round(one.pHedge),
      })),
    });
  });

  // Changes how every request of this instance behaves: admin only (403 otherwise).
  app.post('/v1/observability/hedging/config', async (c) => {
    requireAdmin(c.get('caller'));
    const body = validate(configSchema, await readJson(c, deps.maxBodyBytes));
    deps.hedging.config.enabledByDefault = body.enabled_by_default;
    return c.json({ enabled_by_default: deps.hedging.config.enabledByDefault });
  });
}

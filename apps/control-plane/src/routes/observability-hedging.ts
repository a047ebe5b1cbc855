import type { RouteRegistry } from '@svc/http-kit';
import { adminOnly, bearer, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import { strictBody } from '../strict-body.js';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '@svc/http-kit';
import { readJson } from '../read-json.js';

const configSchema = strictBody({ enabled_by_default: v.boolean('must be true or false') });

export const hedgingStatsRoute = defineRoute({
  method: 'get',
  path: '/v1/observability/hedging/stats',
  operationId: 'getHedgingStats',
  summary: "This instance's hedging counters and per-model latency",
  tags: ['Observability'],
  auth: bearer('observability:read'),
  responses: { 200: jsonResponse('Counters (`requests`, `fired`, `secondary_wins`, ...) and, per model, what a hedge waits for.') },
});

export const hedgingConfigRoute = defineRoute({
  method: 'post',
  path: '/v1/observability/hedging/config',
  operationId: 'setHedgingConfig',
  summary: 'Turn hedging on or off by default',
  description: "Changes how every request of this instance behaves, hence admin only.",
  tags: ['Observability'],
  auth: adminOnly,
  body: { schema: configSchema, name: 'HedgingConfigRequest' },
  responses: { 200: jsonResponse('`{enabled_by_default}`.') },
  errors: [400, 413],
});

/** `GET /hedging/stats`, `POST /hedging/config` (spec document 2), mounted under /v1/observability. */
export function registerHedging(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(hedgingStatsRoute, (c) => {
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

  routes.add(hedgingConfigRoute, async (c) => {
    const body = validate(configSchema, await readJson(c, deps.maxBodyBytes));
    deps.hedging.config.enabledByDefault = body.enabled_by_default;
    return c.json({ enabled_by_default: deps.hedging.config.enabledByDefault });
  });
}

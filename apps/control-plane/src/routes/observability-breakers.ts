import type { RouteRegistry } from '@svc/http-kit';
import { adminOnly, bearer, defineRoute, jsonResponse } from '@svc/openapi';
import type { BreakerStatus } from '@svc/resilience';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { validate } from '@svc/http-kit';
import { readJson } from '../read-json.js';
import { strictBody } from '../strict-body.js';

/** `BreakerStatus` in wire names; times as ISO-8601. */
function toWire(status: BreakerStatus) {
  const slash = status.key.indexOf('/');
  return {
    key: status.key,
    provider: slash > 0 ? status.key.slice(0, slash) : status.key,
    model: status.key,
    state: status.state,
    failures: status.failures,
    successes: status.successes,
    consecutive_failures: status.consecutiveFailures,
    opened_at: status.openedAt === null ? null : new Date(status.openedAt).toISOString(),
    next_probe_at: status.nextProbeAt === null ? null : new Date(status.nextProbeAt).toISOString(),
    cooldown_ms: status.cooldownMs,
  };
}

/** A JSON object; `key` (a model slug) narrows the reset to one breaker; any other field is a 400 naming it. */
const resetSchema = strictBody({ key: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'at most 200 characters'))) });

export const listBreakersRoute = defineRoute({
  method: 'get',
  path: '/v1/observability/breakers',
  operationId: 'listBreakers',
  summary: 'Circuit breakers per model',
  tags: ['Observability'],
  auth: bearer('observability:read'),
  responses: { 200: jsonResponse('An array of `BreakerStatus` (state, counts, `opened_at`, `next_probe_at`, `cooldown_ms`).') },
});

export const resetBreakersRoute = defineRoute({
  method: 'post',
  path: '/v1/observability/breakers/reset',
  operationId: 'resetBreakers',
  summary: 'Close circuit breakers',
  description:
    'Every breaker, or the one of `key` (a model slug), on every instance sharing the kv. Breakers are platform state (every organisation shares them), hence admin only (403 otherwise).',
  tags: ['Observability'],
  auth: adminOnly,
  body: { schema: resetSchema, name: 'ResetBreakersRequest' },
  responses: { 204: { description: 'Reset.' } },
  errors: [400, 403, 413],
});

/** `GET /breakers`, `POST /breakers/reset` (spec document 2), mounted under /v1/observability. */
export function registerBreakers(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(listBreakersRoute, async (c) => c.json((await deps.breakers.list()).map(toWire)));

  routes.add(resetBreakersRoute, async (c) => {
    const body = validate(resetSchema, await readJson(c, deps.maxBodyBytes));
    await deps.breakers.reset(body.key);
    return c.body(null, 204);
  });
}

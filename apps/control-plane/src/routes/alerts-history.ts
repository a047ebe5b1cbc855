import { alertSeverities } from '@svc/core';
import type { AlertRecord } from '@svc/db';
import type { RouteRegistry } from '@svc/http-kit';
import { bearer, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import type { ControlPlaneDeps } from '../deps.js';
import type { ControlEnv } from '../env.js';
import { targetOrg, targetOrgQuery } from '../target-org.js';
import { validate } from '@svc/http-kit';
import { integerParam } from '../integer-param.js';

/** Hard cap of `limit` (spec document 2 §Limits); larger values are clamped to it. */
const maxLimit = 1000;

const historyQuery = v.object({
  ...targetOrgQuery.entries,
  alert_id: v.optional(v.pipe(v.string(), v.uuid('must be a UUID'), v.description('Only this alert.'))),
  severity: v.optional(v.picklist(alertSeverities, `must be one of ${alertSeverities.join(', ')}`)),
  status: v.optional(v.picklist(['firing', 'resolved'], 'must be firing or resolved')),
  limit: v.optional(
    v.pipe(
      integerParam,
      v.description(`Most alerts answered, an integer of at least 1; larger than ${maxLimit} counts as ${maxLimit}.`),
      v.minValue(1, 'must be at least 1'),
      v.transform((limit) => Math.min(limit, maxLimit)),
    ),
    '100',
  ),
});

export const alertHistoryRoute = defineRoute({
  method: 'get',
  path: '/v1/alerts/history',
  operationId: 'listAlertHistory',
  summary: 'Alerts, newest first',
  description:
    "The caller organisation's alerts and the platform-wide ones (breakers); an admin key sees every organisation's, or one with `org_id`. A non-admin naming another organisation gets 403 `tenant_violation`.",
  tags: ['SLOs and alerts'],
  auth: bearer('observability:read'),
  query: historyQuery,
  responses: { 200: jsonResponse('A `list` of `alert` objects (`kind`, `severity`, `status`, `subject`, `message`, `details`, `fired_at`, `resolved_at`).') },
  errors: [400, 403, 404],
});

/** `AlertHistoryResponse` item. */
function alertToWire(alert: AlertRecord) {
  return {
    id: alert.id,
    object: 'alert',
    org_id: alert.orgId,
    kind: alert.kind,
    severity: alert.severity,
    status: alert.status,
    subject: alert.subject,
    message: alert.message,
    details: alert.details,
    fired_at: alert.firedAt.toISOString(),
    resolved_at: alert.resolvedAt?.toISOString() ?? null,
  };
}

/**
 * `GET /v1/alerts/history` (spec document 2 `/history`): alerts newest first, of the caller's
 * organisation and the platform-wide ones (breakers); an admin sees every organisation's.
 * `alert_id` (UUID), `severity`, `status` filter; `limit` defaults to 100 and is capped at 1000.
 */
export function registerAlertHistory(routes: RouteRegistry<ControlEnv>, deps: ControlPlaneDeps): void {
  routes.add(alertHistoryRoute, async (c) => {
    const { org_id, alert_id, severity, status, limit } = c.req.query();
    const present = Object.entries({ org_id, alert_id, severity, status, limit }).filter(([, value]) => value !== undefined);
    const query = validate(historyQuery, Object.fromEntries(present));
    const caller = c.get('caller');
    // `org_id` names whose alerts (403 for another organisation unless admin); absent: an admin sees all.
    const orgId = query.org_id !== undefined ? (await targetOrg(c, deps)).id : caller.scopes.has('admin') ? undefined : caller.org.id;
    const rows = await deps.db.alerts.list({
      ...(orgId === undefined ? {} : { orgId }),
      ...(query.alert_id ? { id: query.alert_id } : {}),
      ...(query.severity ? { severity: query.severity } : {}),
      ...(query.status ? { status: query.status } : {}),
      limit: query.limit,
    });
    return c.json({ object: 'list', data: rows.map(alertToWire) });
  });
}

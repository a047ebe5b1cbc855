import { requireSameOrg } from '@svc/auth';
import type { Caller } from '@svc/core';
import { type RouteDescriptor, bearer, defineRoute, jsonResponse } from '@svc/openapi';
import * as v from 'valibot';
import { validate } from '@svc/http-kit';
import { integerParam } from '../integer-param.js';

export const DAY_MS = 86_400_000;

/**
 * Whose figures a report shows. A key with `observability:read` sees its own organisation's; an
 * admin key sees the fleet, or one organisation with `?org_id=`. A non-admin naming another
 * organisation gets 403 `tenant_violation`.
 */
export interface ReportScope {
  scope: 'fleet' | 'organization';
  orgId: string | undefined;
}

/**
 * The query of the traffic reports (summary, swc, benchmarks): `org_id` (a UUID) and `days` (an
 * integer, clamped to 1..365; `fallback` when absent or empty). Empty values count as absent.
 */
export function reportQuery(fallbackDays: number) {
  return v.object({
    org_id: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(64, 'must be an organisation id (a UUID)'),
        v.uuid('must be an organisation id (a UUID)'),
        v.description("One organisation's figures: any with an admin key, otherwise only the key's own (403 `tenant_violation`). Absent: the key's organisation, or the fleet for an admin key."),
      ),
    ),
    days: v.optional(v.pipe(integerParam, v.description(`The window in days back from now, an integer clamped to 1..365; default ${fallbackDays}.`))),
  });
}

/** The validated report query of a request (empty values count as absent; other parameters are ignored). */
export function readReportQuery(schema: ReturnType<typeof reportQuery>, query: Record<string, string>) {
  const { org_id, days } = query;
  return validate(schema, Object.fromEntries(Object.entries({ org_id, days }).filter(([, value]) => value !== undefined && value !== '')));
}

/** A traffic report: `GET`, `observability:read`, the report query with its default window, one JSON answer. */
export function trafficReportRoute(
  fields: Pick<RouteDescriptor, 'path' | 'operationId' | 'summary' | 'description'> & { answer: string; query: ReturnType<typeof reportQuery> },
): RouteDescriptor {
  const { answer, ...rest } = fields;
  return defineRoute({ ...rest, method: 'get', tags: ['Observability'], auth: bearer('observability:read'), responses: { 200: jsonResponse(answer) }, errors: [400] });
}

/** Whose figures: `orgId` as validated by {@link reportQuery}. */
export function reportScope(caller: Caller, orgId: string | undefined): ReportScope {
  if (orgId === undefined) return caller.scopes.has('admin') ? { scope: 'fleet', orgId: undefined } : { scope: 'organization', orgId: caller.org.id };
  requireSameOrg(caller, orgId);
  return { scope: 'organization', orgId };
}

/** The report window: `days` back from now (`fallback` when absent), clamped to 1..365. */
export function reportWindow(days: number | undefined, fallback: number): { days: number; since: Date; until: Date } {
  const clamped = Math.min(365, Math.max(1, days ?? fallback));
  const until = new Date();
  return { days: clamped, since: new Date(until.getTime() - clamped * DAY_MS), until };
}

/** The window and scope as every report prints them. */
export function reportHeader(scope: ReportScope, window: { days: number; since: Date; until: Date }) {
  return {
    scope: scope.scope,
    org_id: scope.orgId ?? null,
    window: { days: window.days, start: window.since.toISOString(), end: window.until.toISOString() },
  };
}

/** `part / whole`, 0 when there is no whole. */
export function ratio(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

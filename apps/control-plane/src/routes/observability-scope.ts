import { requireSameOrg } from '@svc/auth';
import { type Caller, invalidRequest } from '@svc/core';
import { isUuid } from '@svc/db';
import * as v from 'valibot';
import { integerParam, validate } from '../validate.js';

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

export function reportScope(caller: Caller, orgId: string | undefined): ReportScope {
  if (orgId === undefined || orgId === '') {
    return caller.scopes.has('admin') ? { scope: 'fleet', orgId: undefined } : { scope: 'organization', orgId: caller.org.id };
  }
  if (orgId.length > 64 || !isUuid(orgId)) throw invalidRequest('org_id must be an organisation id (a UUID).', 'org_id');
  requireSameOrg(caller, orgId);
  return { scope: 'organization', orgId };
}

/**
 * The report window: `days` back from now, `fallback` when absent or empty, clamped to 1..365;
 * anything but a whole number is a 400 naming `days`.
 */
export function reportWindow(days: string | undefined, fallback: number): { days: number; since: Date; until: Date } {
  const parsed = days === undefined || days === '' ? fallback : validate(v.object({ days: integerParam }), { days }).days;
  const clamped = Math.min(365, Math.max(1, parsed));
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

import type { ReportQuery } from './admin-routing-decisions.js';

export const DAY_MS = 86_400_000;

/** The decision-log filter of a report query's `tenant_id` and `model`. */
export function reportScope(query: ReportQuery): { orgId?: string; model?: string } {
  return {
    ...(query.tenant_id !== undefined ? { orgId: query.tenant_id } : {}),
    ...(query.model !== undefined ? { model: query.model } : {}),
  };
}

/** ISO-8601 bounds of a window, as the reports print them. */
export function windowBounds(since: Date, until: Date): { start: string; end: string } {
  return { start: since.toISOString(), end: until.toISOString() };
}

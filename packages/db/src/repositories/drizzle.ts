import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/** The query builder shared by both drivers; repositories only use what both support. */
export type Drizzle = PgDatabase<PgQueryResultHKT>;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids arrive from URLs; a malformed one is "not found", not a database error. */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}

/** Clamps a caller-supplied page size to 1..max. */
export function clampLimit(limit: number | undefined, fallback: number, max = 1000): number {
  if (limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.min(Math.max(Math.trunc(limit), 1), max);
}

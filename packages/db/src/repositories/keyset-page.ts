import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

/** One page of a list in creation order: at most `limit` rows after the row with id `after`. */
export interface PageRequest {
  /** The id of the last row of the previous page; absent for the first page. */
  after?: string | undefined;
  /** 1..1000. */
  limit: number;
}

export interface Page<T> {
  data: T[];
  /** Whether rows follow this page (ask again with `after` = the last row's id). */
  hasMore: boolean;
}

/** A table listed in `(created_at, id)` order. */
interface Listed {
  table: PgTable;
  createdAt: PgColumn;
  id: PgColumn;
}

/**
 * The condition "comes after the row with id `after`" in `(created_at, id)` order (keyset
 * pagination: stable while rows are added, one index range per page). An unknown `after` matches
 * nothing.
 */
export function afterRow(listed: Listed, after: string): SQL {
  return sql`(${listed.createdAt}, ${listed.id}) > (select ${listed.createdAt}, ${listed.id} from ${listed.table} where ${listed.id} = ${after})`;
}

/** The page of `rows` fetched with `limit + 1`: the extra row only says that more follow. */
export function toPage<T>(rows: T[], limit: number): Page<T> {
  return rows.length > limit ? { data: rows.slice(0, limit), hasMore: true } : { data: rows, hasMore: false };
}

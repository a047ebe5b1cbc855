import type { SqlRunner } from './sql-runner.js';

/**
 * The newest migration applied to the database (drizzle's `created_at`, the journal's `when`),
 * or undefined when it has none: no gateway schema lives there.
 */
export async function appliedMigration(pg: SqlRunner): Promise<number | undefined> {
  const { rows } = await pg.query<{ present: boolean }>(`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (!rows[0]?.present) return undefined;
  const latest = await pg.query<{ created_at: string | null }>('select max(created_at)::text as created_at from drizzle.__drizzle_migrations');
  const value = latest.rows[0]?.created_at;
  return value === null || value === undefined ? undefined : Number(value);
}

/** Whether the database holds the gateway's tables (any migration applied, or its first table). */
export async function holdsGatewayData(pg: SqlRunner): Promise<boolean> {
  if ((await appliedMigration(pg)) !== undefined) return true;
  const { rows } = await pg.query<{ present: boolean }>(`select to_regclass('public.organizations') is not null as present`);
  return rows[0]?.present === true;
}

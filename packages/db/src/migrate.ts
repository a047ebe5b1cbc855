import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePgliteDb } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgresDb } from 'drizzle-orm/postgres-js/migrator';
import type { Sql } from 'postgres';

/**
 * The committed SQL migrations. This file sits in `src/` when run from source and is bundled
 * into `dist/` when built; both are siblings of `migrations/`, which the package ships.
 */
export function defaultMigrationsFolder(): string {
  return fileURLToPath(new URL('../migrations', import.meta.url));
}

export interface MigrateTarget {
  migrationsFolder: string;
  /** Tables and drizzle's bookkeeping go here; undefined = `public` + `drizzle`. */
  schema: string | undefined;
}

/**
 * Applies pending migrations on a dedicated single connection, holding a session advisory lock
 * so that several instances starting against one database apply each migration exactly once.
 */
export async function migratePostgres(sql: Sql, target: MigrateTarget): Promise<void> {
  const lockName = `svc:migrate:${target.schema ?? 'public'}`;
  await sql`select pg_advisory_lock(hashtext(${lockName}))`;
  try {
    if (target.schema) await sql`create schema if not exists ${sql(target.schema)}`;
    await migratePostgresDb(drizzlePostgres(sql), {
      migrationsFolder: target.migrationsFolder,
      migrationsSchema: target.schema ?? 'drizzle',
    });
  } finally {
    await sql`select pg_advisory_unlock(hashtext(${lockName}))`;
  }
}

/** Applies pending migrations to an embedded database (single connection, no lock needed). */
export async function migratePglite(client: PGlite, target: MigrateTarget): Promise<void> {
  await migratePgliteDb(drizzlePglite(client), {
    migrationsFolder: target.migrationsFolder,
    migrationsSchema: target.schema ?? 'drizzle',
  });
}

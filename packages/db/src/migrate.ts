import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { Sql } from 'postgres';

// Each migrator loads its driver when it runs: a process that only points at the migrations
// folder (the gateway's main thread, whose store runs on a thread of its own) holds neither.

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
    const [{ drizzle }, { migrate }] = await Promise.all([import('drizzle-orm/postgres-js'), import('drizzle-orm/postgres-js/migrator')]);
    await migrate(drizzle(sql), {
      migrationsFolder: target.migrationsFolder,
      migrationsSchema: target.schema ?? 'drizzle',
    });
  } finally {
    await sql`select pg_advisory_unlock(hashtext(${lockName}))`;
  }
}

/** Applies pending migrations to an embedded database (single connection, no lock needed). */
export async function migratePglite(client: PGlite, target: MigrateTarget): Promise<void> {
  const [{ drizzle }, { migrate }] = await Promise.all([import('drizzle-orm/pglite'), import('drizzle-orm/pglite/migrator')]);
  await migrate(drizzle(client), {
    migrationsFolder: target.migrationsFolder,
    migrationsSchema: target.schema ?? 'drizzle',
  });
}

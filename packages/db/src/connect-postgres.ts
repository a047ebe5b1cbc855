import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import type { Database } from './database.js';
import { RowBatches } from './row-intake.js';
import { StoreError } from './embedded/store-error.js';
import { DbCircuit, guardRepositories } from './availability.js';
import { type MigrateTarget, migratePostgres } from './migrate.js';
import { createRepositories } from './repositories/index.js';
import { probe } from './with-timeout.js';

export interface PostgresOptions extends MigrateTarget {
  url: string;
  poolSize: number;
  migrate: boolean;
  /** Limit for opening one connection, ms. */
  connectTimeoutMs: number;
  /** Limit for one repository call, ms (see DbCircuitOptions.callTimeoutMs). */
  callTimeoutMs: number;
}

function connect(url: string, schema: string | undefined, max: number, connectTimeoutMs: number) {
  return postgres(url, {
    max,
    // Seconds; a blackholed database must cost a request this long at most (then the circuit answers).
    connect_timeout: connectTimeoutMs / 1000,
    idle_timeout: 60,
    // Notices like "schema already exists, skipping" are expected noise, not logs.
    onnotice: () => {},
    ...(schema ? { connection: { search_path: schema } } : {}),
  });
}

export async function connectPostgres(options: PostgresOptions): Promise<Database> {
  const target: MigrateTarget = { migrationsFolder: options.migrationsFolder, schema: options.schema };
  const migrate = async () => {
    const sql = connect(options.url, options.schema, 1, Math.max(options.connectTimeoutMs, 10_000));
    try {
      await migratePostgres(sql, target);
    } finally {
      await sql.end({ timeout: 5 });
    }
  };
  if (options.migrate) await migrate();

  const sql = connect(options.url, options.schema, options.poolSize, options.connectTimeoutMs);
  let closed: Promise<void> | undefined;
  const repositories = guardRepositories(createRepositories(drizzle(sql)), new DbCircuit({ callTimeoutMs: options.callTimeoutMs }));
  return {
    kind: 'postgres',
    ...repositories,
    intake: new RowBatches(repositories),
    migrate,
    backup: () => Promise.reject(new StoreError('not_embedded', 'svc backup writes the embedded store; back up PostgreSQL with its own tools (pg_dump, or your provider\'s snapshots)')),
    ping: (timeoutMs = 2000) => probe(() => sql`select 1`, timeoutMs),
    close: () => {
      closed ??= sql.end({ timeout: 5 });
      return closed;
    },
  };
}

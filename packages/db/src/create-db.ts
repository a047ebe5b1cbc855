import { connectPglite } from './connect-pglite.js';
import type { CreateDbOptions, Database } from './database.js';
import { defaultMigrationsFolder } from './migrate.js';

const schemaPattern = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Opens the relational store and applies pending migrations before resolving: PostgreSQL via
 * postgres.js when `url` is a `postgres://` URL, embedded PGlite otherwise. Several instances may
 * start against one PostgreSQL at once; migrations are serialised by an advisory lock.
 */
export async function createDb(options: CreateDbOptions = {}): Promise<Database> {
  const { url, schema } = options;
  if (schema !== undefined && !schemaPattern.test(schema)) {
    throw new Error(`invalid schema name "${schema}": use lowercase letters, digits and _`);
  }
  const target = { migrationsFolder: options.migrationsFolder ?? defaultMigrationsFolder(), schema };
  const migrate = options.migrate ?? true;
  if (url !== undefined) {
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new Error('database url must start with postgres:// or postgresql://');
    }
    // Loaded when configured: postgres.js and its drizzle driver stay out of an embedded gateway.
    const { connectPostgres } = await import('./connect-postgres.js');
    return connectPostgres({ ...target, url, poolSize: options.poolSize ?? 10, migrate, connectTimeoutMs: options.connectTimeoutMs ?? 3000, callTimeoutMs: options.callTimeoutMs ?? 10_000 });
  }
  return connectPglite({ ...target, dataDir: options.dataDir, migrate, log: options.log ?? (() => {}) });
}

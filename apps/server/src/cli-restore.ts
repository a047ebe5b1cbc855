import { DataDirError, StoreError, defaultMigrationsFolder, restoreDataDir } from '@svc/db';
import { CliError } from './cli-args.js';
import type { CliIo } from './cli-commands.js';
import type { Env } from './runtime/env.js';

/**
 * `svc restore FILE`: replaces the embedded store in SVC_DATA_DIR with a backup. It opens no
 * store of its own and forwards to no gateway: the directory must be free.
 */
export async function restoreCommand(file: string | undefined, env: Env, io: CliIo): Promise<void> {
  if (!file) throw new CliError('svc restore FILE: the backup to restore is missing');
  if (env.DATABASE_URL) throw new CliError('svc restore writes the embedded store (SVC_DATA_DIR) and DATABASE_URL is set: restore PostgreSQL with its own tools');
  try {
    const report = await restoreDataDir({ dataDir: env.SVC_DATA_DIR, file, migrationsFolder: defaultMigrationsFolder() });
    const rows = Object.values(report.rows).reduce((sum, count) => sum + count, 0);
    io.out(JSON.stringify({ restored: file, tables: report.tables, rows, previous: report.previous ?? null }));
    io.err(`restored ${rows} rows in ${report.tables} tables into ${env.SVC_DATA_DIR}${report.previous ? `; the store it held is kept in ${report.previous}` : ''}`);
  } catch (error) {
    if (error instanceof StoreError) throw new CliError(error.message);
    if (error instanceof DataDirError && error.reason === 'held') throw new CliError(`${error.message}: stop the gateway first, then run svc restore again`);
    throw error;
  }
}

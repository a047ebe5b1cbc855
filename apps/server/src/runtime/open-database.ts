import { DataDirError, type Database, StoreError, type StoreNote, createDb } from '@svc/db';
import { ConfigError, type Env } from './env.js';

/** Who opens the store; it decides what the refusal of a held embedded directory advises. */
export type DatabaseOpener = 'gateway' | 'cli';

const advice: Record<DatabaseOpener, string> = {
  gateway:
    'two processes writing one embedded directory lose rows: stop the other one, give this one its own SVC_DATA_DIR, or share a PostgreSQL with DATABASE_URL',
  cli: 'the CLI would write behind its back and the gateway would not see the change: stop the gateway first, or use its admin API (POST /v1/admin/orgs, POST /v1/admin/keys, DELETE /v1/admin/keys/ID) with an admin key',
};

/**
 * Opens the relational store the environment names (DATABASE_URL, else embedded PGlite in
 * SVC_DATA_DIR), migrated. The embedded directory is locked while open, so neither a second
 * gateway nor the CLI writes it behind a running gateway's back.
 *
 * An embedded directory of an earlier release is upgraded on the way (`log` hears of it).
 *
 * @throws ConfigError naming SVC_DATA_DIR when the directory is not a gateway data directory,
 *   another live process has it open, or it was written in a form this release cannot read.
 */
export async function openDatabase(env: Pick<Env, 'DATABASE_URL' | 'SVC_DATA_DIR'>, opener: DatabaseOpener, log: (note: StoreNote) => void): Promise<Database> {
  try {
    return await createDb(env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.SVC_DATA_DIR, log });
  } catch (error) {
    if (error instanceof StoreError) throw new ConfigError('SVC_DATA_DIR', error.message, { cause: error });
    if (!(error instanceof DataDirError)) throw error;
    if (error.reason === 'foreign') throw new ConfigError('SVC_DATA_DIR', error.message);
    throw new ConfigError('SVC_DATA_DIR', `${error.message}; ${advice[opener]}`, { cause: error });
  }
}

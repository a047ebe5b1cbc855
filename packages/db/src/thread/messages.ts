import type { StoreNote } from '../database.js';

/** What the store thread needs to open the embedded store (the lock and the directory's preparation stay with the caller). */
export interface StoreThreadSettings {
  /** PGlite's directory, or undefined / `memory://...` for memory. */
  pgliteDir: string | undefined;
  /** PostgreSQL schema of the tables (test isolation); undefined: `public`. */
  schema: string | undefined;
  migrationsFolder: string;
  migrate: boolean;
  /** Where backups are written before the caller moves or streams them. */
  backupDir: string;
}

/** An error as it crosses the thread boundary: enough to rebuild the classes callers test for. */
export interface WireError {
  name: string;
  message: string;
  code?: string;
  constraint?: string;
  reason?: string;
}

/** Main thread -> store thread. */
export type StoreRequest =
  | { id: number; kind: 'open'; settings: StoreThreadSettings }
  | { id: number; kind: 'call'; target: string; method: string; args: unknown[]; staged?: number }
  /** Rows handed over ahead of the call whose `staged` names `id`: its first argument is them followed by its own. No answer. */
  | { id: number; kind: 'stage'; rows: unknown[] }
  /** Ledger and decision-log rows as JSON, handed to the thread's `RowBatches` (no answer; `settle` is a call). */
  | { id: number; kind: 'rows'; usage: string[]; decisions: string[] }
  | { id: number; kind: 'close' };

/** Store thread -> main thread: the answer to request `id`. */
export type StoreResponse = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

export type { StoreNote };

/** Why the embedded store, or a backup of it, cannot be used as it is. */
export type StoreErrorReason =
  /** The data directory was written by a newer release (a store format this one does not know). */
  | 'newer_store'
  /** The data directory holds files of a PostgreSQL version this release's PGlite cannot open. */
  | 'unreadable_store'
  /** A restore into the directory stopped half way. */
  | 'interrupted_restore'
  /** The backup was written by a newer release (its format or its schema). */
  | 'newer_backup'
  /** The file is not a complete svc backup. */
  | 'invalid_backup'
  /** The store is PostgreSQL (DATABASE_URL): its own tools back it up. */
  | 'not_embedded';

/**
 * The embedded store cannot be opened, upgraded, backed up or restored as asked. The message is
 * one line that says what to run instead; nothing was changed.
 */
export class StoreError extends Error {
  constructor(
    readonly reason: StoreErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

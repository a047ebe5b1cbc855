import type { RestoreReport, RestoreSettings } from './embedded/restore-data-dir.js';

/**
 * Restores a backup into a data directory (see the embedded `restoreDataDir`), loaded on first
 * use: PGlite, its migrator and the archive reader stay out of a gateway that never restores.
 */
export async function restoreDataDir(settings: RestoreSettings): Promise<RestoreReport> {
  const restore = await import('./embedded/restore-data-dir.js');
  return restore.restoreDataDir(settings);
}

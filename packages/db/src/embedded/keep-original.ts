import { cp, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * Names of a data directory that are the gateway's own, never PostgreSQL's: the lock, notes,
 * the format marker, kept originals and work in progress. The old layout keeps PGlite's files
 * at the top of the data directory, beside these.
 */
export function isGatewayEntry(name: string): boolean {
  return ['svc.lock', 'svc.control.json', 'svc-store.json', 'restore.tmp', 'pglite', 'journal'].includes(name) || /^(pre-upgrade-|before-restore-|upgrade-|backup-)/.test(name) || name.endsWith('.partial');
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Copies PGlite's files in `pgliteDir` to `<dataDir>/<name>` before an upgrade changes them,
 * unless an earlier attempt already kept them (that copy is the true original). The copy takes
 * its name only once complete. Resolves to its path.
 */
export async function keepOriginal(dataDir: string, pgliteDir: string, name: string): Promise<string> {
  const target = join(dataDir, name);
  if (await exists(target)) return target;
  const partial = `${target}.partial`;
  await rm(partial, { recursive: true, force: true });
  const legacy = resolve(pgliteDir) === resolve(dataDir);
  for (const entry of await readdir(pgliteDir)) {
    if (legacy && isGatewayEntry(entry)) continue;
    await cp(join(pgliteDir, entry), join(partial, entry), { recursive: true, preserveTimestamps: true });
  }
  await rename(partial, target);
  return target;
}

import { open, readdir, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { isGatewayEntry } from './embedded/keep-original.js';

/** The lock file a process keeps in the embedded data directory while it has it open. */
export const LOCK_FILE = 'svc.lock';
/**
 * Where PGlite keeps its files inside a data directory the gateway created (PGlite's initdb
 * wants an empty directory, and the lock file must exist before PGlite opens anything).
 * Directories made before the lock existed hold PGlite's files at the top and keep working.
 */
export const PGLITE_SUBDIR = 'pglite';
/**
 * Beside the lock: where the gateway holding the directory serves its admin API (written by the
 * server once it listens), so that the CLI forwards to it instead of writing behind its back.
 */
export const CONTROL_FILE = 'svc.control.json';

/** A held data directory: where PGlite opens, and the idempotent release of the lock. */
export interface HeldDataDir {
  pgliteDir: string;
  release(): Promise<void>;
}

/** What the lock file holds: enough to say who has the directory. */
export interface DataDirHolder {
  pid: number;
  hostname: string;
  /** ISO-8601. */
  since: string;
}

/**
 * The embedded data directory cannot be opened: `foreign` when it is a non-empty directory that
 * is not a PGlite data directory (PGlite's initdb would fail with an opaque exit status);
 * `held` when another live process has it open (two writers of one PGlite directory lose rows).
 */
export class DataDirError extends Error {
  constructor(
    readonly reason: 'foreign' | 'held',
    readonly dataDir: string,
    message: string,
    readonly holder?: DataDirHolder,
  ) {
    super(message);
    this.name = 'DataDirError';
  }
}

/** Directories this process holds, so a second open in one process fails as well. */
const heldHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readHolder(path: string): Promise<DataDirHolder | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<DataDirHolder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.hostname !== 'string') return undefined;
    return { pid: parsed.pid, hostname: parsed.hostname, since: String(parsed.since ?? '') };
  } catch {
    return undefined;
  }
}

/**
 * Whether a recorded holder still has the directory. A holder on another host cannot be checked
 * and is taken as gone (a container restarted under a new hostname must not be locked out); so
 * is a holder with this process's own pid that this process does not hold (a restarted
 * container is often pid 1 again).
 */
function stillHeld(holder: DataDirHolder): boolean {
  if (holder.hostname !== hostname()) return false;
  if (holder.pid === process.pid) return false;
  return alive(holder.pid);
}

/**
 * Checks that `dataDir` (which must exist) is empty or a gateway data directory, and takes its
 * lock file (`svc.lock`, created exclusively) before anything else touches it. A lock left by a
 * process that is gone is taken over.
 *
 * @throws DataDirError `foreign` or `held`.
 */
export async function lockDataDir(dataDir: string): Promise<HeldDataDir> {
  const dir = resolve(dataDir);
  const entries = await readdir(dir);
  const legacy = entries.includes('PG_VERSION');
  if (!legacy && entries.some((name) => !isGatewayEntry(name))) {
    throw new DataDirError('foreign', dir, `${dir} holds other files and is not a gateway data directory; point it at an empty or new directory`);
  }
  const pgliteDir = legacy ? dir : join(dir, PGLITE_SUBDIR);
  const path = join(dir, LOCK_FILE);
  if (heldHere.has(dir)) {
    throw new DataDirError('held', dir, `${dir} is already open in this process`, { pid: process.pid, hostname: hostname(), since: '' });
  }
  const mine: DataDirHolder = { pid: process.pid, hostname: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const file = await open(path, 'wx');
      try {
        await file.writeFile(`${JSON.stringify(mine)}\n`);
      } finally {
        await file.close();
      }
      heldHere.add(dir);
      let released: Promise<void> | undefined;
      const release = () => {
        released ??= (async () => {
          heldHere.delete(dir);
          const holder = await readHolder(path);
          if (holder?.pid === mine.pid && holder.since === mine.since) await rm(path, { force: true });
        })();
        return released;
      };
      return { pgliteDir, release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = await readHolder(path);
      if (holder && stillHeld(holder)) {
        throw new DataDirError('held', dir, `${dir} is open in a running gateway (pid ${holder.pid} since ${holder.since})`, holder);
      }
      await rm(path, { force: true });
    }
  }
  throw new DataDirError('held', dir, `${dir}: another process took the lock while this one was taking over a stale one`);
}

import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CONTROL_FILE } from '@svc/db';
import type { Env } from './runtime/env.js';

/** What a gateway holding an embedded data directory says beside its lock: where its admin API is. */
export interface ControlNote {
  pid: number;
  /** `http://host:port` of the control plane; null when this process serves no control plane (role `inference`). */
  control_url: string | null;
  /** Whether it runs with SVC_MASTER_KEY: without one, no key the CLI holds opens its admin API. */
  master_key: boolean;
}

/** The embedded data directory `env` names, or undefined (PostgreSQL, or in memory). */
export function embeddedDataDir(env: Pick<Env, 'DATABASE_URL' | 'SVC_DATA_DIR'>): string | undefined {
  if (env.DATABASE_URL || env.SVC_DATA_DIR.startsWith('memory://')) return undefined;
  return resolve(env.SVC_DATA_DIR);
}

/** The URL a process on this host reaches a server at that listens on `host` (a wildcard address is reached on loopback). */
export function localUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** Writes the note beside the lock; resolves to its removal (which leaves a note of another process alone). */
export async function writeControlNote(dataDir: string, said: Omit<ControlNote, 'pid'>): Promise<() => Promise<void>> {
  const path = join(dataDir, CONTROL_FILE);
  const note: ControlNote = { pid: process.pid, ...said };
  await writeFile(path, `${JSON.stringify(note)}\n`);
  return async () => {
    if ((await readControlNote(dataDir))?.pid === process.pid) await rm(path, { force: true });
  };
}

/** The note in `dataDir`, or undefined when there is none or it is not (yet) whole. */
export async function readControlNote(dataDir: string): Promise<ControlNote | undefined> {
  try {
    const parsed = JSON.parse(await readFile(join(dataDir, CONTROL_FILE), 'utf8')) as Partial<ControlNote>;
    if (typeof parsed.pid !== 'number') return undefined;
    return { pid: parsed.pid, control_url: typeof parsed.control_url === 'string' ? parsed.control_url : null, master_key: parsed.master_key !== false };
  } catch {
    return undefined;
  }
}

/**
 * The note of the gateway with pid `holder`, waiting up to `waitMs` for it (the gateway writes
 * it once it listens, a moment after it took the lock); undefined when none came.
 */
export async function awaitControlNote(dataDir: string, holder: number, waitMs: number): Promise<ControlNote | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const note = await readControlNote(dataDir);
    if (note?.pid === holder) return note;
    if (Date.now() >= deadline) return undefined;
    await new Promise((done) => setTimeout(done, 100));
  }
}

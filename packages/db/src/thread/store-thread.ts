import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { WORKER_RESOURCE_LIMITS } from '@svc/core';
import { DbUnavailableError } from '../availability.js';
import type { Database } from '../database.js';
import type { BackupSummary } from '../embedded/backup.js';
import type { Repositories } from '../repositories/index.js';
import { REPOSITORY_NAMES } from '../repositories/repository-names.js';
import type { StoreRequest, StoreResponse, StoreThreadSettings } from './messages.js';
import { ThreadIntake } from './thread-intake.js';
import { fromWireError } from './wire-error.js';
import { probe } from '../with-timeout.js';

/** The worker's entry: built (`dist/store-worker.js`), or from the sources through tsx (tests). */
function workerEntry(): { url: URL; execArgv: string[] } {
  const built = new URL('./store-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return { url: built, execArgv: [] };
  return { url: new URL('./source-boot.mjs', import.meta.url), execArgv: ['--conditions=@svc/source'] };
}

type Pending = { resolve(value: unknown): void; reject(error: Error): void };

/** Rows of one call copied to the store thread in one message at most (see `StoreThread.call`). */
export const HAND_OFF_ROWS = 64;

/** The embedded store's calls, each a message to the store thread and its answer. */
class StoreThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private gone: Error | undefined;

  constructor() {
    const entry = workerEntry();
    this.worker = new Worker(entry.url, { execArgv: entry.execArgv, name: 'svc-store', resourceLimits: WORKER_RESOURCE_LIMITS });
    this.worker.on('message', (response: StoreResponse) => this.settle(response));
    this.worker.on('error', (error) => this.stop(new DbUnavailableError(`the embedded store's thread failed: ${error.message}`, { cause: error })));
    this.worker.on('exit', (code) => this.stop(new DbUnavailableError(`the embedded store's thread stopped (exit ${code})`)));
    // The thread keeps the process alive only while an answer is awaited: a caller that stops
    // without closing the store (a failed start) still exits.
    this.worker.unref();
  }

  request(message: DistributiveOmit<StoreRequest, 'id'>): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  /**
   * A call whose first argument is a long array (a ledger or decision-log batch) hands its rows
   * over in slices, the loop free between them: copying a message holds the event loop (500
   * decision rows took 5-10 ms), a slice of them well under one. The thread puts the slices back
   * together and makes the one call (one statement) as before.
   */
  async call(target: string, method: string, args: unknown[]): Promise<unknown> {
    const rows = args[0];
    if (!Array.isArray(rows) || rows.length <= HAND_OFF_ROWS) return this.request({ kind: 'call', target, method, args });
    const staging = this.nextId++;
    let start = 0;
    for (; rows.length - start > HAND_OFF_ROWS; start += HAND_OFF_ROWS) {
      if (this.gone) throw this.gone;
      this.worker.postMessage({ kind: 'stage', id: staging, rows: rows.slice(start, start + HAND_OFF_ROWS) } satisfies StoreRequest);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return this.request({ kind: 'call', target, method, args: [rows.slice(start), ...args.slice(1)], staged: staging });
  }

  /** Rows for the thread's intake, no answer awaited; none once the thread is gone. */
  postRows(usage: string[], decisions: string[]): void {
    if (!this.gone) this.worker.postMessage({ kind: 'rows', id: 0, usage, decisions } satisfies StoreRequest);
  }

  async close(): Promise<void> {
    if (!this.gone) await this.request({ kind: 'close' }).catch(() => {});
    await this.worker.terminate();
  }

  private settle(response: StoreResponse): void {
    const pending = this.pending.get(response.id);
    if (!pending) return;
    this.pending.delete(response.id);
    if (this.pending.size === 0) this.worker.unref();
    if (response.ok) pending.resolve(response.value);
    else pending.reject(fromWireError(response.error));
  }

  private stop(reason: Error): void {
    this.gone ??= reason;
    for (const pending of this.pending.values()) pending.reject(this.gone);
    this.pending.clear();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A repository whose every method is a call to the store thread. */
function remoteRepository(thread: StoreThread, target: string): unknown {
  return new Proxy(
    {},
    {
      get: (_, method) => (typeof method === 'string' && method !== 'then' ? (...args: unknown[]) => thread.call(target, method, args) : undefined),
    },
  );
}

/**
 * Opens the embedded store on a thread of its own: PGlite's WebAssembly, migrations, ledger
 * batches and the reports' queries never run on the caller's event loop, which only passes
 * messages. The caller holds the data directory's lock and has prepared it. `onClosed` runs once
 * the thread is gone.
 */
export async function openStoreThread(settings: StoreThreadSettings, onClosed: () => Promise<void>): Promise<Database> {
  const thread = new StoreThread();
  try {
    await thread.request({ kind: 'open', settings });
  } catch (error) {
    await thread.close();
    throw error;
  }
  const repositories = Object.fromEntries(REPOSITORY_NAMES.map((name) => [name, remoteRepository(thread, name)])) as Repositories;
  let closed: Promise<void> | undefined;
  return {
    kind: 'pglite',
    ...repositories,
    intake: new ThreadIntake({
      postRows: (usage, decisions) => thread.postRows(usage, decisions),
      settle: async () => {
        await thread.call('', 'settle', []);
      },
    }),
    migrate: async () => {
      await thread.call('', 'migrate', []);
    },
    backup: async () => {
      const made = (await thread.call('', 'backup', [])) as { path: string; summary: BackupSummary };
      return { ...made, discard: () => rm(made.path, { force: true }) };
    },
    // The store answers `select 1` within the time, the thread's round trip included.
    ping: (timeoutMs = 2000) =>
      probe(async () => {
        if ((await thread.call('', 'ping', [timeoutMs])) !== true) throw new Error('no answer');
      }, timeoutMs),
    close: () => {
      closed ??= thread.close().finally(onClosed);
      return closed;
    },
  };
}

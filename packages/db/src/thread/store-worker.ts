/**
 * The store thread's entry: the embedded store (PGlite, its WebAssembly and every query) runs
 * here, off the gateway's event loop. It answers the main thread's requests one message each
 * (see store-thread.ts).
 */
import { parentPort } from 'node:worker_threads';
import { lowerThreadPriority, reduceMemory } from '@svc/core';
import { type EmbeddedStore, openEmbedded } from '../embedded/open-embedded.js';
import { RowBatches } from '../row-intake.js';
import type { StoreRequest, StoreResponse } from './messages.js';
import { toWireError } from './wire-error.js';

/** The store thread's nice value (Linux; the encoder's is 19). */
const STORE_THREAD_NICENESS = 10;

const port = parentPort;
if (!port) throw new Error('store-worker runs as a worker thread');

let store: EmbeddedStore | undefined;
/** The ledger's and the decision log's handed rows (`rows` messages), written in batches. */
let intake: RowBatches | undefined;

/** Rows staged for a call still to come, by the staging id (`stage` messages). */
const staged = new Map<number, unknown[]>();

/** The call's arguments with its staged rows put back in front of its first argument. */
function argsOf(request: Extract<StoreRequest, { kind: 'call' }>): unknown[] {
  if (request.staged === undefined) return request.args;
  const rows = staged.get(request.staged) ?? [];
  staged.delete(request.staged);
  for (const row of request.args[0] as unknown[]) rows.push(row);
  return [rows, ...request.args.slice(1)];
}

type Method = (...args: unknown[]) => Promise<unknown>;

function method(target: string, name: string): Method {
  if (!store) throw new Error('the store is not open');
  const holder: Record<string, unknown> = target === '' ? { migrate: store.migrate, backup: store.backup, ping: store.ping, settle: () => intake?.settle() } : (store.repositories as unknown as Record<string, Record<string, unknown>>)[target] ?? {};
  const found = holder[name];
  if (typeof found !== 'function') throw new Error(`the store has no ${target ? `${target}.` : ''}${name}`);
  return (found as Method).bind(holder);
}

async function answer(request: StoreRequest): Promise<unknown> {
  switch (request.kind) {
    case 'open':
      store = await openEmbedded(request.settings);
      intake = new RowBatches(store.rowTables);
      // Opened (initdb, migrations) at full speed; from now on the event loop that serves
      // requests goes first when both want the core, and the store keeps about a tenth of it
      // meanwhile (CFS weight of nice 10), so ledger batches and lookups still progress.
      lowerThreadPriority(STORE_THREAD_NICENESS);
      // Opening (initdb, migrations, the WebAssembly compile) leaves garbage and half-empty pages
      // that an idle thread keeps (V8's memory reducer runs 7-21 s after ready, sometimes not within 25 s).
      await reduceMemory();
      return null;
    case 'call': {
      const args = argsOf(request);
      return method(request.target, request.method)(...args);
    }
    case 'close':
      // What was handed and not settled (a caller that stopped without settling) is written first.
      await intake?.settle().catch(() => {});
      await store?.close();
      store = undefined;
      return null;
  }
}

/** Rows handed to the intake, parsed and queued here; written by the intake's own batches. */
function takeRows(usage: string[], decisions: string[]): void {
  if (!intake) return;
  for (const json of usage) intake.hand('usage', json);
  for (const json of decisions) intake.hand('decision', json);
}

port.on('message', (request: StoreRequest) => {
  if (request.kind === 'rows') {
    takeRows(request.usage, request.decisions);
    return;
  }
  if (request.kind === 'stage') {
    const rows = staged.get(request.id);
    if (rows === undefined) staged.set(request.id, request.rows);
    else for (const row of request.rows) rows.push(row);
    return;
  }
  answer(request).then(
    (value) => port.postMessage({ id: request.id, ok: true, value } satisfies StoreResponse),
    (error: unknown) => port.postMessage({ id: request.id, ok: false, error: toWireError(error) } satisfies StoreResponse),
  );
});

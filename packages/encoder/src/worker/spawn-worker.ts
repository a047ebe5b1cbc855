import { Worker } from 'node:worker_threads';
import { WORKER_RESOURCE_LIMITS } from '@svc/core';
import type { WorkerSettings } from './protocol.js';

/**
 * Starts the inference thread. Built, the worker is `dist/encoder-worker.js` beside the bundle.
 * From source (tests, `@svc/source` scripts) it is the `.ts` file, imported after tsx's API has
 * registered its loader in that thread; this package resolves tsx itself, so callers need not
 * have it (Node 20 ignores a loader given to a worker through `--import`). The thread gets none
 * of the process's flags: it needs none, and some (`--input-type`, `--eval`) break a worker.
 */
export function spawnEncoderWorker(settings: WorkerSettings): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./encoder-worker.js', import.meta.url), { workerData: settings, execArgv: [], resourceLimits: WORKER_RESOURCE_LIMITS });
  const entry = new URL('./encoder-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(bootstrap, { eval: true, workerData: settings, execArgv: [], resourceLimits: WORKER_RESOURCE_LIMITS });
}

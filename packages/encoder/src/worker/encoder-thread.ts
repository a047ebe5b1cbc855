import type { WorkerMessage, WorkerSettings } from './protocol.js';
import { spawnEncoderWorker } from './spawn-worker.js';

/** The inference thread seen from the main thread. */
export interface EncoderThread {
  /** Settles when the model is loaded and checked; rejects with the thread's one-line error. */
  readonly ready: Promise<void>;
  /** Embeds one batch: `[texts, dimensions]` row-major. Rejects with {@link fatal} once there is one. */
  run(texts: string[]): Promise<Float32Array>;
  /** The inference thread's nice value once loaded; undefined before, or when the system refused to set it. */
  niceness(): number | undefined;
  /** The first terminal error (a failed load, a crash, or `stop`), or undefined while healthy. */
  fatal(): Error | undefined;
  /** Ends the thread; pending and later runs reject with `reason`. */
  stop(reason: Error): Promise<void>;
}

/**
 * Starts the worker and keeps its bookkeeping: requests waiting for answers, the first fatal
 * error (every later failure reports that one, so callers see why, not a consequence), and
 * whether the thread may keep the process alive (only while it loads or owes an answer).
 */
export function startEncoderThread(settings: WorkerSettings, dimensions: number): EncoderThread {
  const worker = spawnEncoderWorker(settings);
  const pending = new Map<number, { resolve: (data: Float32Array) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let loaded = false;
  let niceness: number | undefined;
  let fatal: Error | undefined;
  let rejectReady: (error: Error) => void = () => {};

  const track = () => (pending.size > 0 || !loaded ? worker.ref() : worker.unref());
  function die(error: Error): void {
    fatal ??= error;
    rejectReady(fatal);
    for (const p of pending.values()) p.reject(fatal);
    pending.clear();
    loaded = true;
    track();
  }

  const ready = new Promise<void>((resolve, reject) => {
    rejectReady = reject;
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'ready') {
        if (message.dimensions !== dimensions) die(new Error(`sentence encoder: the model has ${message.dimensions} dimensions, expected ${dimensions}`));
        loaded = true;
        niceness = message.niceness;
        resolve();
      } else if (message.type === 'failed') {
        die(new Error(message.error));
        void worker.terminate();
      } else {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.type === 'vectors') waiter?.resolve(message.data);
        else waiter?.reject(new Error(message.error));
      }
      track();
    });
  });
  // Callers learn of a failed load through `ready`, `fatal()` or `run`; never as an unhandled rejection.
  ready.catch(() => {});
  worker.on('error', (error) => die(new Error(`sentence encoder: inference thread crashed (${error.message.split('\n')[0]})`)));
  worker.on('exit', (code) => die(new Error(`sentence encoder: inference thread exited (code ${code})`)));

  return {
    ready,
    fatal: () => fatal,
    niceness: () => niceness,
    async run(texts) {
      await ready;
      if (fatal) throw fatal;
      const id = nextId++;
      return new Promise<Float32Array>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        track();
        worker.postMessage({ id, texts });
      });
    },
    async stop(reason) {
      die(reason);
      await worker.terminate();
    },
  };
}

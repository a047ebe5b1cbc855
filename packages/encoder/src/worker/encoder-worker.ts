import { parentPort, workerData } from 'node:worker_threads';
import type { EmbedRequest, StopRequest, WorkerMessage, WorkerSettings } from './protocol.js';
import { lowerThreadPriority, reduceMemory } from '@svc/core';
import type { Inference } from './inference.js';

// Entry of the inference thread: onnxruntime-node's `session.run` computes on the calling JS
// thread (it only defers to `setImmediate`), so it runs here, never on the gateway's loop.
const port = parentPort;
if (!port) throw new Error('encoder-worker must run as a worker thread');
const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
const settings = workerData as WorkerSettings;
// Before onnxruntime loads (a dynamic import), so any thread it starts inherits the lower priority.
const niceness = lowerThreadPriority(settings.niceness);
// Aborted by a `StopRequest`: the request in progress ends before its next onnxruntime run.
const stop = new AbortController();

const loading = import('./inference.js').then(({ createInference }) => createInference(settings, stop.signal));
// Requests run one after another behind the load; a stop ends the thread once the one in progress
// (or the load, whose self-check is a run too) has returned.
let queue: Promise<unknown> = loading.then(
  async (inference) => {
    // The load's garbage and the pages it left half full: an idle thread would keep them until
    // V8's memory reducer runs, 8-16 s later.
    await reduceMemory();
    post({ type: 'ready', dimensions: inference.dimensions, niceness });
  },
  (error: unknown) => {
    if (!stop.signal.aborted) post({ type: 'failed', error: (error instanceof Error ? error.message : String(error)).split('\n')[0]! });
  },
);

async function answer(inference: Inference, request: EmbedRequest): Promise<void> {
  if (request.tokens || request.pair) {
    const { vectors, tokens } = await (request.pair ? inference.runWithPairFeatures(request.texts) : inference.runWithTokens(request.texts));
    post({ type: 'vectors', id: request.id, data: vectors, tokens }, [vectors.buffer, tokens.counts.buffer, tokens.ids.buffer, tokens.states.buffer] as ArrayBuffer[]);
  } else {
    const data = await inference.run(request.texts);
    post({ type: 'vectors', id: request.id, data }, [data.buffer as ArrayBuffer]);
  }
}

port.on('message', (request: EmbedRequest | StopRequest) => {
  if ('type' in request) {
    // The main thread has already rejected every request it sent: nothing more is answered.
    stop.abort(new Error('sentence encoder: stopped'));
    queue = queue.then(() => process.exit(0));
    return;
  }
  queue = queue.then(async () => {
    if (stop.signal.aborted) return;
    try {
      await answer(await loading, request);
    } catch (error) {
      if (!stop.signal.aborted) post({ type: 'error', id: request.id, error: error instanceof Error ? error.message : String(error) });
    }
  });
});

import { parentPort, workerData } from 'node:worker_threads';
import type { EmbedRequest, StopRequest, WorkerMessage, WorkerSettings } from './protocol.js';
import { collectGarbage, lowerThreadPriority } from '@svc/core';

// Entry of the inference thread: onnxruntime-node's `session.run` computes on the calling JS
// thread (it only defers to `setImmediate`), so it runs here, never on the gateway's loop.
const port = parentPort;
if (!port) throw new Error('encoder-worker must run as a worker thread');
const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
const settings = workerData as WorkerSettings;
// Before onnxruntime loads (a dynamic import), so any thread it starts inherits the lower priority.
const niceness = lowerThreadPriority(settings.niceness);

import('./inference.js')
  .then(({ createInference }) => createInference(settings))
  .then(
    (inference) => {
      // The encoded graph (~27 MB) is garbage now; an idle thread would keep it until its next GC.
      collectGarbage();
      post({ type: 'ready', dimensions: inference.dimensions, niceness });
      let queue = Promise.resolve();
      let stopping = false;
      port.on('message', (request: EmbedRequest | StopRequest) => {
        if ('type' in request) {
          // After the run in progress; the requests queued behind it see `stopping` and are skipped.
          stopping = true;
          queue = queue.then(() => process.exit(0));
          return;
        }
        queue = queue.then(async () => {
          if (stopping) return;
          try {
            if (request.tokens || request.pair) {
              const { vectors, tokens } = await (request.pair ? inference.runWithPairFeatures(request.texts) : inference.runWithTokens(request.texts));
              post({ type: 'vectors', id: request.id, data: vectors, tokens }, [vectors.buffer, tokens.counts.buffer, tokens.ids.buffer, tokens.states.buffer] as ArrayBuffer[]);
            } else {
              const data = await inference.run(request.texts);
              post({ type: 'vectors', id: request.id, data }, [data.buffer as ArrayBuffer]);
            }
          } catch (error) {
            post({ type: 'error', id: request.id, error: error instanceof Error ? error.message : String(error) });
          }
        });
      });
    },
    (error: unknown) => post({ type: 'failed', error: (error instanceof Error ? error.message : String(error)).split('\n')[0]! }),
  );

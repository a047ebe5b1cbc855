import type { WeightFormat } from '../model/dense-weights.js';
import type { PackedTokens } from '../token-states.js';

/** What the worker is started with (`workerData`). */
export interface WorkerSettings {
  /** Folder with `config.json`, `model.fp16.safetensors`, `tokenizer.json`; undefined: the weights package's. */
  modelDir: string | undefined;
  maxTokens: number;
  /** How the graph holds the large matrices (see `WeightFormat`). */
  weights: WeightFormat;
  /** Padded tokens (rows x longest) per onnxruntime run; a batch over it is split. */
  maxBatchTokens: number;
  intraOpNumThreads: number;
  selfCheck: boolean;
  /** Build the shipped pair model's projection into the graph (`pair_features`). */
  pairModel: boolean;
  /** With the pair model, follow its numbers by the fixed projection's (`CONTEXT_COLUMNS` more a word piece). */
  pairContext: boolean;
  /** Nice value the inference thread gives itself before it loads onnxruntime (0: unchanged). */
  niceness: number;
}

/** Main thread to worker: embed one batch (`tokens`: with each text's token states). Only one is in flight at a time. */
export interface EmbedRequest {
  id: number;
  texts: string[];
  tokens?: boolean;
  /** With each text's pair features (in `tokens`, `pair` dimensions wide); needs `pairModel`. */
  pair?: boolean;
}

/**
 * Main thread to worker: end the thread once the onnxruntime run in progress (if any) has
 * returned, giving up the rest of its request and skipping the requests still queued (the main
 * thread has rejected them all). Terminating the thread inside onnxruntime's `run` aborts the
 * whole process (the binding's error cannot be thrown into a terminating thread: `std::terminate`).
 */
export interface StopRequest {
  type: 'stop';
}

/** Worker to main thread. `vectors` is `[texts, dimensions]` row-major, its buffer transferred (and the token states' when asked for). */
export type WorkerMessage =
  /** `niceness`: the inference thread's nice value, or undefined when the system refused it. */
  | { type: 'ready'; dimensions: number; niceness: number | undefined }
  | { type: 'failed'; error: string }
  | { type: 'vectors'; id: number; data: Float32Array; tokens?: PackedTokens }
  | { type: 'error'; id: number; error: string };

/** What the worker is started with (`workerData`). */
export interface WorkerSettings {
  /** Folder with `config.json`, `model.fp16.safetensors`, `tokenizer.json`; undefined: the weights package's. */
  modelDir: string | undefined;
  maxTokens: number;
  /** Padded tokens (rows x longest) per onnxruntime run; a batch over it is split. */
  maxBatchTokens: number;
  intraOpNumThreads: number;
  selfCheck: boolean;
}

/** Main thread to worker: embed one batch. Only one is in flight at a time. */
export interface EmbedRequest {
  id: number;
  texts: string[];
}

/** Worker to main thread. `vectors` is `[texts, dimensions]` row-major, its buffer transferred. */
export type WorkerMessage =
  | { type: 'ready'; dimensions: number }
  | { type: 'failed'; error: string }
  | { type: 'vectors'; id: number; data: Float32Array }
  | { type: 'error'; id: number; error: string };

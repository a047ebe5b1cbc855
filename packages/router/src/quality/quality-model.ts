import { type RequestFeatures, featureDimension, toVector } from '../features.js';
import type { TrainingDomain } from './domain.js';

/**
 * A learned item model (two-parameter IRT): the probability that a model of ability `theta`
 * answers a request well is `sigmoid(a(request) theta - d(request))`; the difficulty `d` and the
 * log discrimination `log a` are linear in the request's sentence embedding plus 12 text signals.
 * Trained offline on public per-model correctness data (`tooling/evals/src/router`), shipped as
 * `shipped-model.ts`.
 */
export interface QualityModel {
  /** Format version. */
  version: 1;
  /** Embedder the weights expect (`all-MiniLM-L6-v2`), and its dimensions. */
  embedder: string;
  dimensions: number;
  /** Difficulty = bias + embedding . embeddingWeights + textSignals(request) . textWeights. */
  bias: number;
  embeddingWeights: Float32Array;
  textWeights: Float32Array;
  /** The text-only head used when no embedding is available (proxy-free sync routing). */
  textOnly: { bias: number; weights: Float32Array };
  /**
   * How much ability matters for a request (2PL IRT discrimination): P = sigmoid(a theta - d) with
   * log a linear in the same inputs. Zero weights: a = 1 (the one-parameter model).
   */
  discrimination: { bias: number; embeddingWeights: Float32Array; textWeights: Float32Array; textOnly: { bias: number; weights: Float32Array } };
  /** Difficulties of a sample of training prompts (sorted): maps a quality prior to an ability. */
  difficultyQuantiles: Float32Array;
  /** Log discrimination of the same sample, index for index. */
  discriminationSample: Float32Array;
  /** Abilities learned for the training models (by name), for reference and evaluation. */
  abilities: Record<string, number>;
  /** Where the weights came from (data sets, rows), for the docs. */
  trainedOn: string;
  /** The training prompts' region of embedding space: a prompt outside it is read as the prior. Absent: every prompt is read. */
  domain?: TrainingDomain;
}

/** Number of text signals the difficulty reads (see {@link textSignals}). */
export const textSignalCount = 12;

/** Slots of `toVector`'s dense features the difficulty model reads: length, code, math, reasoning and constraint words, numbers, long words, negations, lines, numeric options, math symbols, markup. */
const textSignalSlots = [1, 4, 5, 11, 12, 13, 15, 16, 18, 19, 20, 6] as const;
const scratch = new Float64Array(featureDimension);

/** The request's text signals the difficulty model reads (unit-scaled, as the policy sees them); written into `out`. */
export function textSignals(f: RequestFeatures, out: Float32Array = new Float32Array(textSignalCount)): Float32Array {
  toVector(f, scratch);
  for (let i = 0; i < textSignalCount; i++) out[i] = scratch[textSignalSlots[i]!]!;
  return out;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-Math.max(-30, Math.min(30, z))));

/** Difficulty of a request: from its embedding when given, else from the text signals alone. */
export function difficulty(model: QualityModel, signals: Float32Array, embedding?: ArrayLike<number>): number {
  if (embedding === undefined || embedding.length !== model.dimensions) {
    let d = model.textOnly.bias;
    for (let i = 0; i < textSignalCount; i++) d += model.textOnly.weights[i]! * signals[i]!;
    return d;
  }
  let d = model.bias;
  const w = model.embeddingWeights;
  for (let i = 0; i < w.length; i++) d += w[i]! * embedding[i]!;
  for (let i = 0; i < textSignalCount; i++) d += model.textWeights[i]! * signals[i]!;
  return d;
}

/** Log discrimination of a request (its embedding when given, else text signals only). */
export function logDiscrimination(model: QualityModel, signals: Float32Array, embedding?: ArrayLike<number>): number {
  const m = model.discrimination;
  let z: number;
  if (embedding === undefined || embedding.length !== model.dimensions) {
    z = m.textOnly.bias;
    for (let i = 0; i < textSignalCount; i++) z += m.textOnly.weights[i]! * signals[i]!;
  } else {
    z = m.bias;
    for (let i = 0; i < m.embeddingWeights.length; i++) z += m.embeddingWeights[i]! * embedding[i]!;
    for (let i = 0; i < textSignalCount; i++) z += m.textWeights[i]! * signals[i]!;
  }
  return Math.max(-3, Math.min(3, z));
}

/** P(a model of ability `theta` answers a request of difficulty `d` and log discrimination `logA` well). */
export const pCorrect = (theta: number, d: number, logA = 0): number => sigmoid(Math.exp(logA) * theta - d);

/** Float32 weights <-> base64 (little-endian), for the shipped file. */
export function encodeFloats(values: ArrayLike<number>): string {
  return Buffer.from(Float32Array.from(values).buffer).toString('base64');
}

export function decodeFloats(text: string): Float32Array {
  const bytes = Buffer.from(text, 'base64');
  const out = new Float32Array(bytes.length / 4);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

/** A float vector as base64 (little-endian float32). */
type Encoded<T> = { [K in keyof T]: T[K] extends Float32Array ? string : T[K] extends Record<string, unknown> ? Encoded<T[K]> : T[K] };

/** The serialised form of a {@link QualityModel}: its float arrays as base64 (little-endian float32). */
export type QualityModelFile = Encoded<Omit<QualityModel, 'abilities' | 'domain'>> & { abilities: Record<string, number>; domain?: Encoded<TrainingDomain> };

/** Error for a malformed quality-model file. */
export class QualityModelError extends Error {
  override name = 'QualityModelError';
  readonly code = 'quality_model_invalid';
}

const encodeHead = (h: { bias: number; weights: Float32Array }) => ({ bias: h.bias, weights: encodeFloats(h.weights) });
const decodeHead = (h: { bias: number; weights: string }) => ({ bias: h.bias, weights: decodeFloats(h.weights) });

export function serializeQualityModel(m: QualityModel): QualityModelFile {
  const a = m.discrimination;
  return {
    version: 1,
    embedder: m.embedder,
    dimensions: m.dimensions,
    bias: m.bias,
    embeddingWeights: encodeFloats(m.embeddingWeights),
    textWeights: encodeFloats(m.textWeights),
    textOnly: encodeHead(m.textOnly),
    discrimination: { bias: a.bias, embeddingWeights: encodeFloats(a.embeddingWeights), textWeights: encodeFloats(a.textWeights), textOnly: encodeHead(a.textOnly) },
    difficultyQuantiles: encodeFloats(m.difficultyQuantiles),
    discriminationSample: encodeFloats(m.discriminationSample),
    abilities: m.abilities,
    trainedOn: m.trainedOn,
    ...(m.domain ? { domain: { ...m.domain, prototypes: encodeFloats(m.domain.prototypes) } } : {}),
  };
}

export function parseQualityModel(file: QualityModelFile): QualityModel {
  if (file.version !== 1) throw new QualityModelError(`quality model version ${String(file.version)} is not supported (1)`);
  const a = file.discrimination;
  const model: QualityModel = {
    version: 1,
    embedder: file.embedder,
    dimensions: file.dimensions,
    bias: file.bias,
    embeddingWeights: decodeFloats(file.embeddingWeights),
    textWeights: decodeFloats(file.textWeights),
    textOnly: decodeHead(file.textOnly),
    discrimination: { bias: a.bias, embeddingWeights: decodeFloats(a.embeddingWeights), textWeights: decodeFloats(a.textWeights), textOnly: decodeHead(a.textOnly) },
    difficultyQuantiles: decodeFloats(file.difficultyQuantiles),
    discriminationSample: decodeFloats(file.discriminationSample),
    abilities: file.abilities,
    trainedOn: file.trainedOn,
    ...(file.domain ? { domain: { ...file.domain, prototypes: decodeFloats(file.domain.prototypes) } } : {}),
  };
  const heads = [model.textWeights, model.textOnly.weights, model.discrimination.textWeights, model.discrimination.textOnly.weights];
  if (
    model.embeddingWeights.length !== model.dimensions ||
    model.discrimination.embeddingWeights.length !== model.dimensions ||
    heads.some((h) => h.length !== textSignalCount) ||
    model.difficultyQuantiles.length < 2 ||
    model.discriminationSample.length !== model.difficultyQuantiles.length ||
    (model.domain !== undefined && !(model.domain.count >= 1 && model.domain.prototypes.length === model.domain.count * model.dimensions))
  ) {
    throw new QualityModelError('quality model weights have the wrong shapes');
  }
  return model;
}

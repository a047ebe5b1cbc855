import * as v from 'valibot';
import { wordPieceOverlap } from './grid-head.js';
import type { PairReader } from './pair-reader.js';
import { READER_INPUTS, readerInputs } from './reader-inputs.js';
import { ROLE_FEATURE_NAMES, type RoleLexicon, roleFeatures } from './role-features.js';
import { MOVE_FEATURE_NAMES } from './role-move-features.js';
import { firstColumns, type TokenFeatures } from './token-features.js';

const layerSchema = v.strictObject({ w: v.array(v.number()), b: v.array(v.number()) });
const ids = v.array(v.pipe(v.number(), v.integer(), v.minValue(0)));

/** A role model's weights file (tooling/evals/src/semantic/pair-model/role-train.ts writes it). */
export const roleModelSchema = v.strictObject({
  id: v.string(),
  /** The pair model whose word-piece features and grid probability it reads. */
  base: v.string(),
  about: v.string(),
  threshold: v.number(),
  /** The base pair model's probability must reach this too (0: the role model alone decides). */
  baseThreshold: v.number(),
  minOverlap: v.number(),
  /** The inputs it reads, of {@link ROLE_MODEL_INPUTS} and {@link READER_INPUTS}, in its weights' order. */
  inputs: v.array(v.string()),
  lexicon: v.strictObject({ relations: ids, other: ids }),
  mean: v.array(v.number()),
  scale: v.array(v.number()),
  hidden: layerSchema,
  out: layerSchema,
});

export type RoleModelFile = v.InferOutput<typeof roleModelSchema>;

/** The inputs a role model may read: the base pair model's logit, then {@link ROLE_FEATURE_NAMES}. */
export const ROLE_MODEL_INPUTS: readonly string[] = ['gridLogit', ...ROLE_FEATURE_NAMES];

/** A parsed role model: standardisation, one ReLU layer, a logistic unit. */
export interface RoleModel {
  id: string;
  base: string;
  threshold: number;
  baseThreshold: number;
  minOverlap: number;
  /** Where each of its inputs is in {@link ROLE_MODEL_INPUTS} followed by {@link READER_INPUTS}. */
  inputs: number[];
  lexicon: RoleLexicon;
  mean: Float64Array;
  scale: Float64Array;
  hidden: { w: Float64Array; b: Float64Array };
  out: { w: Float64Array; b: Float64Array };
}

/** Checks a role model's file: its schema, its inputs (names and order) and every layer's size. */
export function parseRoleModel(raw: unknown): RoleModel {
  const file = v.parse(roleModelSchema, raw);
  const width = file.inputs.length;
  const known = [...ROLE_MODEL_INPUTS, ...READER_INPUTS];
  const inputs = file.inputs.map((name) => known.indexOf(name));
  if (width === 0 || inputs.includes(-1)) throw new Error(`role model ${file.id}: inputs ${file.inputs.join(',')} are not among ${known.join(',')}`);
  const units = file.hidden.b.length;
  const sizes = [file.mean.length === width, file.scale.length === width, file.hidden.w.length === units * width, file.out.w.length === units, file.out.b.length === 1];
  if (sizes.includes(false)) throw new Error(`role model ${file.id}: layer sizes do not match ${width} inputs and ${units} hidden units`);
  return {
    id: file.id,
    base: file.base,
    threshold: file.threshold,
    baseThreshold: file.baseThreshold,
    minOverlap: file.minOverlap,
    inputs,
    lexicon: { relations: new Set(file.lexicon.relations), other: new Set(file.lexicon.other) },
    mean: Float64Array.from(file.mean),
    scale: Float64Array.from(file.scale),
    hidden: { w: Float64Array.from(file.hidden.w), b: Float64Array.from(file.hidden.b) },
    out: { w: Float64Array.from(file.out.w), b: Float64Array.from(file.out.b) },
  };
}

const logit = (p: number) => Math.log(Math.max(p, 1e-6) / Math.max(1 - p, 1e-6));

/** A stored text and an asked one as the role model reads them: their token features, cosine and word-piece overlap. */
export interface RolePair {
  stored: TokenFeatures;
  asked: TokenFeatures;
  cosine: number;
  overlap: number;
}

/** The model's inputs for a pair: the base pair model's logit and the role features (the move features only with `moves`). */
export function roleInputs(lexicon: RoleLexicon, gridP: number, pair: RolePair, moves = true): number[] {
  return [logit(gridP), ...roleFeatures(pair.stored, pair.asked, pair.cosine, pair.overlap, lexicon, moves)];
}

/** The probability the model gives a pair from every input of {@link ROLE_MODEL_INPUTS} (then {@link READER_INPUTS} when it reads them; it reads those it was trained on). */
export function roleProbability(model: RoleModel, all: readonly number[]): number {
  const width = model.inputs.length;
  const x = model.inputs.map((at, k) => (all[at]! - model.mean[k]!) / model.scale[k]!);
  let sum = model.out.b[0]!;
  for (let u = 0; u < model.hidden.b.length; u++) {
    let h = model.hidden.b[u]!;
    for (let k = 0; k < width; k++) h += model.hidden.w[u * width + k]! * x[k]!;
    sum += model.out.w[u]! * Math.max(0, h);
  }
  return 1 / (1 + Math.exp(-sum));
}

/**
 * A pair reader that reads roles and word order on top of a base pair model (issue #27): texts
 * sharing at least `minOverlap` of their word pieces are judged by the role model (its inputs of
 * the base model's grid probability and {@link roleFeatures}), once the base model's probability
 * reaches `baseThreshold` (else 0); below the overlap floor there is no objection (1), as with the
 * base model. It keeps the base model's id: the features stored with entries are the base's.
 */
export function roleReader(base: PairReader, model: RoleModel): PairReader {
  if (base.id !== model.base) throw new Error(`role model ${model.id} reads pair model ${model.base}, not ${base.id}`);
  const judge = orderJudge(base, model);
  const reader: PairReader = {
    id: base.id,
    dimensions: base.dimensions,
    threshold: model.threshold,
    features: (text) => base.features(text),
    ...(base.context ? { context: base.context } : {}),
    score(query, stored, cosine) {
      const overlap = wordPieceOverlap(stored, query);
      if (overlap < model.minOverlap) return 1;
      return judge(query, stored, cosine, overlap);
    },
  };
  roleReaders.add(reader);
  return reader;
}

/** The role model's probability for one order of a pair (`stored` read as the stored text), its overlap already known to reach the floor. */
function orderJudge(base: PairReader, model: RoleModel): (query: TokenFeatures, stored: TokenFeatures, cosine: number, overlap: number) => number {
  // The base model's grid costs ~1 ms for two sentences: it is scored only when the role model reads it or uses it as a bar.
  const readsBase = model.baseThreshold > 0 || model.inputs.includes(ROLE_MODEL_INPUTS.indexOf('gridLogit'));
  // Models trained before the move features (v2, shipped) do not read them: they are not computed.
  const readsMoves = MOVE_FEATURE_NAMES.some((name) => model.inputs.includes(ROLE_MODEL_INPUTS.indexOf(name)));
  // The replaced-word readers (v3) need the fixed projection in the features and the reduced word table, which the base offers.
  const readsReaders = model.inputs.some((at) => at >= ROLE_MODEL_INPUTS.length);
  const context = base.context;
  if (readsReaders && !context) throw new Error(`role model ${model.id} reads the replaced-word readers; pair model ${base.id} offers no context columns or word table`);
  // The role features read the pair model's own numbers only (as trained); the readers the fixed projection after them.
  const own = (f: TokenFeatures) => (context ? firstColumns(f, context.from) : f);
  return (query, stored, cosine, overlap) => {
    const baseP = readsBase ? base.score(query, stored, cosine) : 1;
    // Under the base model's own bar (baseThreshold) the pair is refused whatever the role model says.
    if (baseP < model.baseThreshold) return 0;
    const inputs = roleInputs(model.lexicon, baseP, { stored: own(stored), asked: own(query), cosine, overlap }, readsMoves);
    if (readsReaders && context) inputs.push(...readerInputs(stored, query, model.lexicon, context));
    return roleProbability(model, inputs);
  };
}

const roleReaders = new WeakSet<PairReader>();

/** Whether a reader is a role model's (made by {@link roleReader}), so is not to be wrapped again. */
export const isRoleReader = (reader: PairReader): boolean => roleReaders.has(reader);

/** The same reader with another threshold (a role model's stays one: it is not wrapped again). */
export function atThreshold(reader: PairReader, threshold: number): PairReader {
  const copy: PairReader = { id: reader.id, dimensions: reader.dimensions, threshold, features: (text) => reader.features(text), score: reader.score, ...(reader.context ? { context: reader.context } : {}) };
  if (isRoleReader(reader)) roleReaders.add(copy);
  return copy;
}

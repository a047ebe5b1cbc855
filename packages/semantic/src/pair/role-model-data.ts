import type { PairReader } from './pair-reader.js';
import data from './minilm-role-v2.json' with { type: 'json' };
import { isRoleReader, parseRoleModel, type RoleModel, roleReader } from './role-reader.js';

let parsed: RoleModel | undefined;

/** The shipped role model (minilm-role-v2.json; tooling/evals/src/semantic/pair-model/role-train.ts made it). */
export function shippedRoleModel(): RoleModel {
  parsed ??= parseRoleModel(data);
  return parsed;
}

/**
 * The pair reader a cache uses by default over an embedder's pair model: the shipped role model
 * on top of it when it reads that model's features (the shared encoder's `minilm-pair-v1`), else
 * the embedder's own reader unchanged (and a role model's reader too).
 */
export function shippedPairReader(base: PairReader | undefined): PairReader | undefined {
  if (!base || isRoleReader(base)) return base;
  const model = shippedRoleModel();
  return base.id === model.base ? roleReader(base, model) : base;
}

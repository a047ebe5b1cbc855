import type { PairReader } from './pair-reader.js';
import data from './minilm-role-v2.json' with { type: 'json' };
import v3 from './minilm-role-v3.json' with { type: 'json' };
import { isRoleReader, parseRoleModel, type RoleModel, roleReader } from './role-reader.js';

let parsed: RoleModel | undefined;
let parsedV3: RoleModel | undefined;

/** The shipped role model (minilm-role-v2.json; tooling/evals/src/semantic/pair-model/role-train.ts made it). */
export function shippedRoleModel(): RoleModel {
  parsed ??= parseRoleModel(data);
  return parsed;
}

/** Role model v3 (minilm-role-v3.json): v2's inputs and the replaced-word readers, over the pair model's features with the fixed projection (`minilm-pair-v2`). */
export function contextRoleModel(): RoleModel {
  parsedV3 ??= parseRoleModel(v3);
  return parsedV3;
}

/**
 * The pair reader a cache uses by default over an embedder's pair model: the role model that
 * reads that model's features on top of it (v2 over the shared encoder's `minilm-pair-v1`, v3
 * over `minilm-pair-v2`, its features with the fixed projection), else the embedder's own reader
 * unchanged (and a role model's reader too).
 */
export function shippedPairReader(base: PairReader | undefined): PairReader | undefined {
  if (!base || isRoleReader(base)) return base;
  const model = [shippedRoleModel(), contextRoleModel()].find((m) => m.base === base.id);
  return model ? roleReader(base, model) : base;
}

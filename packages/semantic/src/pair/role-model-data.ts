import type { PairReader } from './pair-reader.js';
import data from './minilm-role-v2.json' with { type: 'json' };
import v3 from './minilm-role-v3.json' with { type: 'json' };
import v4 from './minilm-role-v4.json' with { type: 'json' };
import { isRoleReader, parseRoleModel, type RoleModel, roleReader } from './role-reader.js';

let parsed: RoleModel | undefined;
let parsedV3: RoleModel | undefined;
let parsedV4: RoleModel | undefined;

/** The shipped role model (minilm-role-v2.json; tooling/evals/src/semantic/pair-model/role-train.ts made it). */
export function shippedRoleModel(): RoleModel {
  parsed ??= parseRoleModel(data);
  return parsed;
}

/** Role model v4 (minilm-role-v4.json), the default over `minilm-pair-v2`: v3's weights and threshold, each pair read in both orders (the mean probability). */
export function contextRoleModel(): RoleModel {
  parsedV4 ??= parseRoleModel(v4);
  return parsedV4;
}

/** Role model v3 (minilm-role-v3.json), the decision before v4: v2's inputs and the replaced-word readers over `minilm-pair-v2`, the stored text read first. */
export function previousContextRoleModel(): RoleModel {
  parsedV3 ??= parseRoleModel(v3);
  return parsedV3;
}

/**
 * The pair reader a cache uses by default over an embedder's pair model: the role model that
 * reads that model's features on top of it (v2 over the shared encoder's `minilm-pair-v1`, v4
 * over `minilm-pair-v2`, its features with the fixed projection), else the embedder's own reader
 * unchanged (and a role model's reader too).
 */
export function shippedPairReader(base: PairReader | undefined): PairReader | undefined {
  if (!base || isRoleReader(base)) return base;
  const model = [shippedRoleModel(), contextRoleModel()].find((m) => m.base === base.id);
  return model ? roleReader(base, model) : base;
}

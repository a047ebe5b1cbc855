import type { HealingChange, HealingChangeKind } from './types.js';

/**
 * How much a healed answer can be trusted to say what the model meant, per kind of change.
 * Only removing a code fence is certain; token repairs are likely right; type coercions guess at
 * intent; dropping content loses information; closing a truncated answer or inventing `null`
 * may change the meaning, so they sit far below anything a caller should accept blindly.
 */
export const changeConfidence: Readonly<Record<HealingChangeKind, number>> = {
  strip_fence: 1,
  strip_prose: 0.95,
  unwrap_string: 0.95,
  repair_syntax: 0.9,
  coerce_type: 0.8,
  wrap_array: 0.8,
  unwrap_array: 0.8,
  match_enum_case: 0.8,
  drop_property: 0.6,
  complete_truncated: 0.3,
  fill_null: 0.3,
};

/** Kinds after which the healed answer may mean something the model did not say. */
export const meaningChangingKinds: ReadonlySet<HealingChangeKind> = new Set(['complete_truncated', 'fill_null']);

/**
 * The confidence of a set of changes: the product over the distinct kinds applied (ten coercions
 * are no less certain than one), rounded to two decimals. 1 when nothing changed.
 */
export function confidenceOf(changes: readonly HealingChange[]): number {
  const kinds = new Set(changes.map((change) => change.kind));
  let confidence = 1;
  for (const kind of kinds) confidence *= changeConfidence[kind];
  return Math.round(confidence * 100) / 100;
}

import { SCALAR_FEATURE_NAMES, type ScalarFeatureName } from '@svc/core';
import type { RequestFeatures } from './features.js';

/** `last_user_chars` -> `lastUserChars`. */
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type ScalarKey = Camel<ScalarFeatureName>;
/** True when A and B are the same union. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Compile-time: every feature of `RequestFeatures` but the term vector and `max_tokens` (an echo of
 * the request) is one of `SCALAR_FEATURE_NAMES` and the other way round, each a number or a boolean.
 */
const namesMatch: Same<Exclude<keyof RequestFeatures, 'terms' | 'maxTokens'>, ScalarKey> & (RequestFeatures[ScalarKey] extends number | boolean ? true : false) = true;
void namesMatch;

/** Each wire name's `RequestFeatures` key, at the same position. */
const KEYS = SCALAR_FEATURE_NAMES.map((name) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as ScalarKey);

export type ScalarFeatures = Record<ScalarFeatureName, number | boolean>;

/** A record with every name in order: each record is a copy of it (one allocation in its final shape), then its values are set. */
const TEMPLATE = Object.fromEntries(SCALAR_FEATURE_NAMES.map((name) => [name, 0])) as ScalarFeatures;

/**
 * The scalar features of a request in wire (snake_case) names, in `SCALAR_FEATURE_NAMES`' order,
 * numbers rounded to 3 decimals: what `/v1/classify_complexity` answers and the decision log keeps.
 */
export function scalarFeatures(features: RequestFeatures): ScalarFeatures {
  const wire = { ...TEMPLATE };
  for (let at = 0; at < KEYS.length; at++) {
    const value = features[KEYS[at]!];
    wire[SCALAR_FEATURE_NAMES[at]!] = typeof value === 'number' ? Math.round(value * 1000) / 1000 : value;
  }
  return wire;
}

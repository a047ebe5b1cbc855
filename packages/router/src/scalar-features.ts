import type { ScalarFeatureName } from '@svc/core';
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

const wireNames = new Map<string, string>();

/** `lastUserChars` -> `last_user_chars`, computed once per name. */
function wireName(name: string): string {
  let wire = wireNames.get(name);
  if (wire === undefined) {
    wire = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    wireNames.set(name, wire);
  }
  return wire;
}

/** A record's scalar value of a feature: numbers rounded to 3 decimals, booleans as they are; undefined for anything else. */
function scalarOf(value: unknown): number | boolean | undefined {
  if (typeof value === 'number') return Math.round(value * 1000) / 1000;
  return typeof value === 'boolean' ? value : undefined;
}

/**
 * The scalar features' names in the order the last record was built, their wire names, and that
 * record: the next one is a copy of it (one allocation in its final shape) with the values set,
 * where adding ~34 keys one by one grew a new record's property store step by step (~1.8 KB).
 */
let lastShape: { names: string[]; wire: string[]; record: Record<string, number | boolean> } | undefined;

/**
 * The scalar features of a request in wire (snake_case) names, numbers rounded to 3 decimals:
 * what `/v1/classify_complexity` answers and the decision log keeps. The hashed term vectors and
 * `max_tokens` (an echo of the request) are left out. The keys are `SCALAR_FEATURE_NAMES`, in its
 * order: the compile-time check above holds the names, `extractFeatures`' literal the order (a
 * test compares them). Built from the features' own keys: a record filled by the list's names cost
 * ~1 µs more a request (loads and stores by a computed name).
 */
export function scalarFeatures(features: RequestFeatures): Record<string, number | boolean> {
  const shape = lastShape;
  if (shape !== undefined) {
    const wire = { ...shape.record };
    let at = 0;
    for (const name in features) {
      if (name === 'maxTokens') continue;
      const value = scalarOf(features[name as keyof RequestFeatures]);
      if (value === undefined) continue;
      if (shape.names[at] !== name) return scalarFeaturesAnew(features);
      wire[shape.wire[at]!] = value;
      at++;
    }
    if (at === shape.names.length) return wire;
  }
  return scalarFeaturesAnew(features);
}

/** The record built key by key, kept as the shape of the next ones. */
function scalarFeaturesAnew(features: RequestFeatures): Record<string, number | boolean> {
  const wire: Record<string, number | boolean> = {};
  const names: string[] = [];
  for (const name in features) {
    if (name === 'maxTokens') continue;
    const value = scalarOf(features[name as keyof RequestFeatures]);
    if (value === undefined) continue;
    wire[wireName(name)] = value;
    names.push(name);
  }
  lastShape = { names, wire: names.map(wireName), record: { ...wire } };
  return wire;
}

import type { ModelAccess } from '@svc/core';
import * as v from 'valibot';
import { strictBody } from '../strict-body.js';

/** Longest list and entry an allow or deny list takes. */
const MAX_ENTRIES = 200;
const entry = v.pipe(v.string(), v.trim(), v.minLength(1, 'entries must not be empty'), v.maxLength(200, 'entries are at most 200 characters'));
const list = v.optional(v.pipe(v.array(entry, 'must be an array of model slugs, upstream names, provider/* or aliases'), v.maxLength(MAX_ENTRIES, `at most ${MAX_ENTRIES} entries`)));

/**
 * `model_access` of an organisation or key: `{allow, deny}` (each optional, default empty), or
 * null to lift every limit. Strict: a misspelt list (`alow`) is a 400, never an open door.
 */
export const modelAccessField = v.optional(
  v.nullable(
    v.pipe(
      strictBody({ allow: list, deny: list }),
      v.description(
        'Models and aliases allowed or denied: entries are catalog slugs (`openai/gpt-4o-mini`), upstream names on any provider (`gpt-4o-mini`), whole providers (`openai/*`) or aliases (`svc/auto`, `auto`, `svc/auto-quality`...). `allow` limits only its own kind (model entries the models, alias entries the aliases); `deny` always wins. A key is held to its own lists and its organisation\'s. null: no lists.',
      ),
    ),
  ),
);

/** The wire value as stored: both lists present, duplicates dropped. */
export function toModelAccess(wire: { allow?: string[] | undefined; deny?: string[] | undefined } | null): ModelAccess | null {
  if (wire === null) return null;
  return { allow: [...new Set(wire.allow ?? [])], deny: [...new Set(wire.deny ?? [])] };
}

/** `model_access` in wire names: null when none is set. */
export function modelAccessToWire(access: ModelAccess | null | undefined): { allow: readonly string[]; deny: readonly string[] } | null {
  return access ? { allow: access.allow, deny: access.deny } : null;
}

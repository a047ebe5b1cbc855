import type { JsonSchema } from '@svc/core';
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type addFormatsPlugin from 'ajv-formats';
import { LRUCache } from 'lru-cache';
import { closeObjects } from './close-objects.js';

export interface SchemaValidatorSettings {
  /** Compiled validators kept; the least recently used is evicted (and released by ajv). Default 256. */
  maxSchemas?: number;
  /** Largest schema accepted, as JSON text length; larger ones are not compiled. Default 65536. */
  maxSchemaBytes?: number;
  /** Deepest nesting of objects and arrays a schema may have. Default 32. */
  maxSchemaDepth?: number;
  /** Total JSON length of the schemas kept. Default 8 MiB. */
  maxCachedBytes?: number;
}

/** A compiled schema, or why the schema cannot be used. */
export type SchemaLookup =
  | { ok: true; validate: (value: unknown) => ErrorObject[] }
  | { ok: false; reason: string };

export interface SchemaValidators {
  /** The validator for `schema`; `strict` closes objects that do not declare extra properties. */
  get(schema: JsonSchema, strict: boolean): SchemaLookup;
  /** Schemas currently held (compiled or known unusable); never above `maxSchemas`. */
  readonly size: number;
}

type Entry = { ok: true; validate: ValidateFunction; schema: JsonSchema } | { ok: false; reason: string };

/** The drafts whose `$schema` ajv's 2020-12 build does not know; their keywords validate the same for structured outputs. */
const draft2020 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * ajv with formats. strict: false because callers' schemas carry keywords ajv does not know (titles
 * are fine, `propertyOrdering` or `x-*` are not); logger: false keeps unknown formats out of the
 * logs. ajv and ajv-formats (CommonJS, ~1.1 MiB of heap) are required by the first schema (or
 * `warmUp`), not when this module is imported.
 */
function newCompiler(): Ajv2020 {
  const require = createRequire(import.meta.url);
  const { Ajv2020: Compiler } = require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 };
  const addFormats = (require('ajv-formats') as { default: typeof addFormatsPlugin }).default;
  const ajv = new Compiler({ strict: false, allErrors: true, addUsedSchema: false, logger: false });
  addFormats(ajv);
  return ajv;
}

/**
 * Compiles JSON Schemas with ajv (draft 2020-12, formats from ajv-formats) and keeps the compiled
 * validators in a bounded LRU keyed by the schema text, so the same `response_format` is compiled
 * once and a caller sending a new schema per request cannot grow memory: evicted schemas are also
 * removed from ajv's own cache. Schemas come from callers, so size and depth are bounded before
 * ajv sees them (ajv's advice for untrusted schemas).
 */
export function createSchemaValidators(settings: SchemaValidatorSettings = {}): SchemaValidators {
  const maxSchemaBytes = settings.maxSchemaBytes ?? 65_536;
  const maxSchemaDepth = settings.maxSchemaDepth ?? 32;
  let ajv: Ajv2020 | undefined;
  const compiler = (): Ajv2020 => {
    ajv ??= newCompiler();
    return ajv;
  };
  const cache = new LRUCache<string, Entry>({
    max: settings.maxSchemas ?? 256,
    maxSize: Math.max(settings.maxCachedBytes ?? 8 * 1024 * 1024, maxSchemaBytes + 1),
    sizeCalculation: (_entry, key) => key.length,
    dispose: (entry) => {
      if (entry.ok) compiler().removeSchema(entry.schema);
    },
  });

  const compile = (text: string, strict: boolean): Entry => {
    if (text.length > maxSchemaBytes) return { ok: false, reason: `the schema is larger than ${maxSchemaBytes} bytes` };
    const schema: unknown = JSON.parse(text);
    if (!isSchemaObject(schema)) return { ok: false, reason: 'the schema is not an object' };
    if (depthExceeds(schema, maxSchemaDepth)) return { ok: false, reason: `the schema nests deeper than ${maxSchemaDepth} levels` };
    if (typeof schema['$schema'] === 'string' && schema['$schema'] !== draft2020) delete schema['$schema'];
    if (strict) closeObjects(schema);
    try {
      return { ok: true, validate: compiler().compile(schema), schema };
    } catch (error) {
      return { ok: false, reason: `the schema is invalid: ${error instanceof Error ? error.message : String(error)}` };
    }
  };

  return {
    get(schema, strict) {
      let text: string;
      try {
        text = JSON.stringify(schema);
      } catch {
        return { ok: false, reason: 'the schema is not JSON' };
      }
      const key = (strict ? 's' : 'n') + text;
      let entry = cache.get(key);
      if (!entry) {
        entry = compile(text, strict);
        cache.set(key, entry);
      }
      if (!entry.ok) return entry;
      const validate = entry.validate;
      return { ok: true, validate: (value) => (validate(value) ? [] : [...(validate.errors ?? [])]) };
    },
    get size() {
      return cache.size;
    },
  };
}

function isSchemaObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function depthExceeds(value: unknown, max: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop() ?? [undefined, 0];
    if (typeof node !== 'object' || node === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

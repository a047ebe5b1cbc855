import type { JsonSchema } from '@svc/core';
import { isRecord } from '../shared/http.js';
import type { GeminiSchema } from './gemini-api.js';

// Keys of Gemini's Schema object that mean the same as in JSON Schema and pass unchanged.
const passthrough: ReadonlySet<string> = new Set([
  'title',
  'description',
  'nullable',
  'required',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'example',
  'default',
  'propertyOrdering',
]);

// The only `format`s Gemini accepts; others (email, uri, ...) fail the whole request.
const formats: ReadonlySet<string> = new Set(['date-time', 'enum', 'int32', 'int64', 'float', 'double']);

/**
 * Converts a JSON Schema (as OpenAI-style callers send for tools and `json_schema`) to the
 * OpenAPI subset Gemini's `Schema` accepts, which rejects unknown keys with a 400:
 * - kept: the keys above, `properties`, `items`, `anyOf`, string `enum`s, supported `format`s;
 * - dropped: `additionalProperties`, `$schema`, `$id`, `$defs`/`definitions`, `strict`,
 *   `not`, `if`/`then`/`else`, `patternProperties`, numeric `enum`s and other unsupported keys;
 * - rewritten: `type: [T, "null"]` and `anyOf`/`oneOf` with a null branch become
 *   `nullable: true`; `oneOf` becomes `anyOf`; `const` becomes a one-value `enum`; `allOf`
 *   is merged; local `$ref`s (`#/$defs/...`, `#/definitions/...`) are inlined, and a recursive
 *   reference is cut to a bare `{type: "object"}` since Gemini cannot express recursion.
 * Empty `properties` are omitted (Gemini rejects an empty map).
 */
export function toGeminiSchema(schema: JsonSchema): GeminiSchema {
  const defs = { ...(isRecord(schema.definitions) ? schema.definitions : {}), ...(isRecord(schema.$defs) ? schema.$defs : {}) };
  return convert(schema, defs, []);
}

/** True when a tool's parameter schema declares no parameters, so `parameters` is omitted. */
export function isEmptyObjectSchema(schema: JsonSchema | undefined): boolean {
  if (schema === undefined) return true;
  if (schema.$ref !== undefined || schema.anyOf !== undefined || schema.oneOf !== undefined || schema.allOf !== undefined) return false;
  return !isRecord(schema.properties) || Object.keys(schema.properties).length === 0;
}

function convert(node: unknown, defs: Record<string, unknown>, refs: readonly string[]): GeminiSchema {
  if (!isRecord(node)) return {};
  if (typeof node.$ref === 'string') {
    const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(node.$ref)?.[1];
    const target = name === undefined ? undefined : defs[name];
    if (target === undefined || refs.includes(node.$ref)) return { type: 'object' };
    return convert(target, defs, [...refs, node.$ref]);
  }
  const out: GeminiSchema = {};
  for (const key in node) {
    const value = node[key];
    switch (key) {
      case 'type':
        applyType(out, value);
        break;
      case 'properties':
        if (isRecord(value) && Object.keys(value).length > 0) {
          const properties: Record<string, GeminiSchema> = {};
          for (const name in value) properties[name] = convert(value[name], defs, refs);
          out.properties = properties;
        }
        break;
      case 'items':
        out.items = convert(Array.isArray(value) ? value[0] : value, defs, refs);
        break;
      case 'anyOf':
      case 'oneOf':
        if (Array.isArray(value)) applyUnion(out, value, defs, refs);
        break;
      case 'allOf':
        if (Array.isArray(value)) for (const part of value) mergeInto(out, convert(part, defs, refs));
        break;
      case 'enum':
        if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) out.enum = value;
        break;
      case 'const':
        if (typeof value === 'string') out.enum = [value];
        break;
      case 'format':
        if (typeof value === 'string' && formats.has(value)) out.format = value;
        break;
      default:
        if (passthrough.has(key)) out[key] = value;
    }
  }
  return out;
}

function applyType(out: GeminiSchema, value: unknown): void {
  if (typeof value === 'string') {
    if (value === 'null') out.nullable = true;
    else out.type = value;
    return;
  }
  if (!Array.isArray(value)) return;
  const types = value.filter((type): type is string => typeof type === 'string' && type !== 'null');
  if (types.length < value.length) out.nullable = true;
  if (types.length === 1) out.type = types[0];
  else if (types.length > 1) out.anyOf = types.map((type) => ({ type }));
}

function applyUnion(out: GeminiSchema, variants: unknown[], defs: Record<string, unknown>, refs: readonly string[]): void {
  const kept: GeminiSchema[] = [];
  for (const variant of variants) {
    if (isRecord(variant) && variant.type === 'null') out.nullable = true;
    else kept.push(convert(variant, defs, refs));
  }
  if (kept.length === 1) mergeInto(out, kept[0]!);
  else if (kept.length > 1) out.anyOf = kept;
}

function mergeInto(out: GeminiSchema, part: GeminiSchema): void {
  for (const key in part) {
    const value = part[key];
    if (key === 'properties' && isRecord(out.properties) && isRecord(value)) out.properties = { ...out.properties, ...value };
    else if (key === 'required' && Array.isArray(out.required) && Array.isArray(value)) out.required = [...out.required, ...value];
    else out[key] = value;
  }
}

import type { JsonSchema } from '@svc/core';
import { isRecord } from '../shared/http.js';
import { pickWord } from './mock-random.js';

/**
 * A type-appropriate sample value for a JSON schema: every declared property is present, enums
 * and consts are honoured, strings with a known `format` are valid for it. Deterministic for a
 * given PRNG. `$ref` and other indirections yield null (the mock does not resolve them).
 */
export function sampleFromSchema(schema: JsonSchema | undefined, random: () => number, depth = 0): unknown {
  if (schema === undefined || depth > 8) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const variants = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (variants !== undefined) {
    const first = variants.find((variant) => isRecord(variant) && variant.type !== 'null');
    return isRecord(first) ? sampleFromSchema(first, random, depth + 1) : null;
  }
  switch (schemaType(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (isRecord(schema.properties)) {
        for (const [key, value] of Object.entries(schema.properties)) {
          out[key] = isRecord(value) ? sampleFromSchema(value, random, depth + 1) : null;
        }
      }
      return out;
    }
    case 'array': {
      const items = isRecord(schema.items) ? schema.items : undefined;
      const count = typeof schema.minItems === 'number' && schema.minItems > 1 ? Math.min(schema.minItems, 16) : 1;
      return Array.from({ length: count }, () => sampleFromSchema(items, random, depth + 1));
    }
    case 'string':
      return sampleString(schema, random);
    case 'integer':
      return typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 1 + Math.floor(random() * 100);
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : Math.round(random() * 10000) / 100;
    case 'boolean':
      return random() < 0.5;
    default:
      return null;
  }
}

function schemaType(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === 'string' && t !== 'null');
  return isRecord(schema.properties) ? 'object' : undefined;
}

function sampleString(schema: JsonSchema, random: () => number): string {
  switch (schema.format) {
    case 'date-time':
      return '2025-01-01T12:00:00Z';
    case 'date':
      return '2025-01-01';
    case 'time':
      return '12:00:00';
    case 'email':
      return 'user@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
    default:
      return `${pickWord(random)} ${pickWord(random)}`;
  }
}

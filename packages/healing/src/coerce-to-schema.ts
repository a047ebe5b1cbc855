import type { ErrorObject } from 'ajv';
import type { HealingChange } from './types.js';

export type CoerceOutcome = { ok: true; value: unknown; changes: HealingChange[] } | { ok: false };

/** Coercion rounds before giving up; each round fixes what the last validation reported (wrapping may reveal item errors). */
const maxRounds = 4;

/**
 * Stage 2: nudges a parsed answer toward its schema using only the schema's own verdict (ajv's
 * errors): lossless scalar conversions, array wrapping and unwrapping, enum letter case, and removal
 * of properties the schema forbids. Nothing is ever added: a missing required property, a `null`,
 * an object where a scalar belongs, or a number that would need rounding stays an error. The
 * value is changed in place; the outcome is ok only when the result validates.
 */
export function coerceToSchema(
  value: unknown,
  errors: readonly ErrorObject[],
  validate: (value: unknown) => ErrorObject[],
): CoerceOutcome {
  const root = { value };
  const changes: HealingChange[] = [];
  let pending = errors;
  for (let round = 0; round < maxRounds && pending.length > 0; round++) {
    const fixed = applyFixes(root, pending, changes);
    if (fixed === 0) return { ok: false };
    pending = validate(root.value);
  }
  return pending.length === 0 ? { ok: true, value: root.value, changes } : { ok: false };
}

type Root = { value: unknown };

function applyFixes(root: Root, errors: readonly ErrorObject[], changes: HealingChange[]): number {
  let fixed = 0;
  const touched = new Set<string>();
  for (const [path, types] of expectedTypes(errors)) {
    const current = read(root, path);
    if (!current.found) continue;
    for (const type of types) {
      const converted = convert(current.value, type);
      if (!converted) continue;
      write(root, path, converted.value);
      changes.push({ kind: converted.kind, path, detail: `${preview(current.value)} -> ${preview(converted.value)} (${type})` });
      touched.add(path);
      fixed++;
      break;
    }
  }
  for (const error of errors) {
    if (touched.has(error.instancePath)) continue;
    if (error.keyword === 'enum') fixed += matchEnumCase(root, error, changes);
    else if ((error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties') && !conditional(error)) {
      fixed += dropProperty(root, error, changes);
    }
  }
  return fixed;
}

/** Expected types per instance path, in the schema's order (several when `anyOf` or a type list offers them). */
function expectedTypes(errors: readonly ErrorObject[]): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const error of errors) {
    if (error.keyword !== 'type') continue;
    const stated = error.params['type'];
    const types = typeof stated === 'string' ? stated.split(',') : Array.isArray(stated) ? stated.map(String) : [];
    const list = byPath.get(error.instancePath) ?? [];
    for (const type of types) if (!list.includes(type)) list.push(type);
    byPath.set(error.instancePath, list);
  }
  return byPath;
}

/** Errors raised inside an alternative the answer need not match: removing content for them could delete what the matching branch needs. */
function conditional(error: ErrorObject): boolean {
  return /\/(?:anyOf|oneOf|not|if|contains)\//.test(error.schemaPath);
}

const jsonNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

type Conversion = { value: unknown; kind: 'coerce_type' | 'wrap_array' | 'unwrap_array' } | undefined;

function convert(value: unknown, type: string): Conversion {
  if (value === null) return undefined;
  if (type === 'array') return Array.isArray(value) ? undefined : { value: [value], kind: 'wrap_array' };
  if (Array.isArray(value)) {
    if (value.length !== 1) return undefined;
    const inner: unknown = value[0];
    if (matchesType(inner, type)) return { value: inner, kind: 'unwrap_array' };
    const converted = convertScalar(inner, type);
    return converted === undefined ? undefined : { value: converted.value, kind: 'unwrap_array' };
  }
  const converted = convertScalar(value, type);
  return converted === undefined ? undefined : { value: converted.value, kind: 'coerce_type' };
}

/** Conversions that keep the value the model wrote, only in the type the schema asks for. */
function convertScalar(value: unknown, type: string): { value: unknown } | undefined {
  if (typeof value === 'string') {
    const text = value.trim();
    if ((type === 'number' || type === 'integer') && jsonNumber.test(text)) {
      const number = Number(text);
      if (!Number.isFinite(number)) return undefined;
      if (type === 'integer' && !Number.isSafeInteger(number)) return undefined;
      return { value: number };
    }
    if (type === 'boolean' && /^(?:true|false)$/i.test(text)) return { value: text.toLowerCase() === 'true' };
    return undefined;
  }
  if (type === 'string' && (typeof value === 'number' || typeof value === 'boolean')) return { value: String(value) };
  return undefined;
}

function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
    case 'string':
    case 'boolean':
      return typeof value === type;
    default:
      return false;
  }
}

function matchEnumCase(root: Root, error: ErrorObject, changes: HealingChange[]): number {
  const current = read(root, error.instancePath);
  const allowed: unknown = error.params['allowedValues'];
  if (!current.found || typeof current.value !== 'string' || !Array.isArray(allowed)) return 0;
  const wanted = current.value.trim().toLowerCase();
  const matches = allowed.filter((option): option is string => typeof option === 'string' && option.toLowerCase() === wanted);
  const [only] = matches;
  if (matches.length !== 1 || only === undefined) return 0;
  write(root, error.instancePath, only);
  changes.push({ kind: 'match_enum_case', path: error.instancePath, detail: `${preview(current.value)} -> ${preview(only)}` });
  return 1;
}

function dropProperty(root: Root, error: ErrorObject, changes: HealingChange[]): number {
  const name: unknown = error.params['additionalProperty'] ?? error.params['unevaluatedProperty'];
  const parent = read(root, error.instancePath);
  if (typeof name !== 'string' || !isRecord(parent.value) || !Object.hasOwn(parent.value, name)) return 0;
  const dropped = parent.value[name];
  delete parent.value[name];
  const path = `${error.instancePath}/${escapePointer(name)}`;
  changes.push({ kind: 'drop_property', path, detail: `removed ${preview(dropped)}` });
  return 1;
}

// JSON Pointer (RFC 6901), as ajv reports instancePath.

function segments(path: string): string[] {
  return path === '' ? [] : path.slice(1).split('/').map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function escapePointer(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1');
}

function read(root: Root, path: string): { found: boolean; value: unknown } {
  let node: unknown = root.value;
  for (const part of segments(path)) {
    if (!isRecord(node) || !Object.hasOwn(node, part)) return { found: false, value: undefined };
    node = node[part];
  }
  return { found: true, value: node };
}

function write(root: Root, path: string, value: unknown): void {
  const parts = segments(path);
  const last = parts.pop();
  if (last === undefined) {
    root.value = value;
    return;
  }
  const parent = read(root, parts.length === 0 ? '' : `/${parts.map(escapePointer).join('/')}`);
  // defineProperty, not assignment: a key named `__proto__` from the model must stay a plain key.
  if (isRecord(parent.value)) Object.defineProperty(parent.value, last, { value, enumerable: true, writable: true, configurable: true });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

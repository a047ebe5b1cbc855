import { expect, it } from 'vitest';
import type { OpenApiDocument, OpenApiOperation } from '../openapi-types.js';
import type { AppUnderTest } from './conformance.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, unknown>;

export interface BoundaryFuzzOptions {
  /** The app, once the file's `beforeAll` has built it. */
  app(): AppUnderTest;
  /** Keys to send each request with: typically an admin key and a tenant key of another organisation. */
  keys(): readonly string[];
  /** Operations left out (`POST /v1/audio/speech`), e.g. ones that call real upstreams. */
  skip?: readonly string[];
  /**
   * A real value for a path parameter (an existing organisation or key id), so bodies reach the
   * handler instead of a 404; `fuzz` when absent.
   */
  pathValue?(name: string, path: string): string | undefined;
  /**
   * Error codes that are the deployment's answer whatever the input (`no_provider_configured`
   * where the test app has no provider for an endpoint): not counted as failures.
   */
  tolerateCodes?: readonly string[];
  /** How many mutated bodies per operation at most (each field mutated in turn). Default 60. */
  maxBodiesPerOperation?: number;
}

/** Values a boundary must refuse with a 4xx, never a 5xx (issue 20, finding 5). */
export const hostileStrings: readonly string[] = ['a\u0000b', '\ud800x', '\u0000'];
/** As JSON text: 2^53+1 must reach the server's parser as written (JavaScript would round it). */
export const hostileNumbers: readonly string[] = ['1e308', '9007199254740993', '-1e308'];
/** `depth` nested arrays: a recursive walk over it overflows the stack long before 5,000. */
export function deeplyNested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

function resolve(document: OpenApiDocument, schema: unknown): Schema {
  let current = (schema ?? {}) as Schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 20; hops++) {
    const path = (current.$ref as string).replace(/^#\//, '').split('/');
    current = path.reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], document) as Schema;
  }
  return current ?? {};
}

/** A plausible value for a JSON schema: required fields only, first option of a union. */
function sample(document: OpenApiDocument, raw: unknown, depth = 0): Json {
  const schema = resolve(document, raw);
  if (depth > 8) return null;
  if ('const' in schema) return schema.const as Json;
  if (Array.isArray(schema.enum)) return schema.enum[0] as Json;
  const union = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (union?.length) return sample(document, union.find((option) => resolve(document, option).type !== 'null') ?? union[0], depth + 1);
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : (schema.type as string | undefined);
  switch (type) {
    case 'string':
      return typeof schema.default === 'string' ? schema.default : 'fuzz';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return typeof schema.minItems === 'number' && schema.minItems > 0 ? [sample(document, schema.items, depth + 1)] : [];
    default: {
      const properties = (schema.properties ?? {}) as Record<string, unknown>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((name) => [name, sample(document, properties[name], depth + 1)]));
    }
  }
}

/** Every field path of a schema (properties, array items), to mutate one at a time. */
function fieldPaths(document: OpenApiDocument, raw: unknown, prefix: (string | number)[] = [], depth = 0): { path: (string | number)[]; type: string }[] {
  const schema = resolve(document, raw);
  if (depth > 6) return [];
  const union = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (union?.length) return union.flatMap((option) => fieldPaths(document, option, prefix, depth + 1));
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : (schema.type as string | undefined);
  const here = prefix.length > 0 ? [{ path: prefix, type: type ?? 'object' }] : [];
  if (type === 'array') return [...here, ...fieldPaths(document, schema.items, [...prefix, 0], depth + 1)];
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  return [...here, ...Object.entries(properties).flatMap(([name, property]) => fieldPaths(document, property, [...prefix, name], depth + 1))];
}

/** JSON text spliced in as is (a 5,000-deep array, a number JavaScript cannot hold). */
class Raw {
  constructor(readonly text: string) {}
}

function setAt(value: Json, path: (string | number)[], replacement: Json | Raw): Json {
  const copy = structuredClone(value) as Json;
  let node = copy as Record<string | number, unknown>;
  for (const [i, part] of path.entries()) {
    if (i === path.length - 1) node[part] = replacement;
    else {
      if (typeof node[part] !== 'object' || node[part] === null) node[part] = typeof path[i + 1] === 'number' ? [] : {};
      node = node[part] as Record<string | number, unknown>;
    }
  }
  return copy;
}

function encode(body: Json): string {
  const raws: string[] = [];
  const text = JSON.stringify(body, (_key, value: unknown) => (value instanceof Raw ? `__RAW_${raws.push(value.text) - 1}__` : value));
  return text.replace(/"__RAW_(\d+)__"/g, (_, index: string) => raws[Number(index)]!);
}

/** The bodies sent to one operation: hostile values in each field in turn, then whole-body shapes. */
function bodies(document: OpenApiDocument, operation: OpenApiOperation, max: number): string[] {
  const schema = operation.requestBody?.content['application/json']?.schema;
  if (!schema) return [];
  const base = sample(document, schema);
  const out: string[] = [deeplyNested(5000), `{"a":${deeplyNested(5000)}}`, '"\\ud800"', '{"x":"\\u0000"}', `[${hostileNumbers.join(',')}]`];
  for (const field of fieldPaths(document, schema)) {
    const values: (Json | Raw)[] =
      field.type === 'string'
        ? [...hostileStrings]
        : field.type === 'integer' || field.type === 'number'
          ? hostileNumbers.map((text) => new Raw(text))
          : field.type === 'object' || field.type === 'array'
            ? [new Raw(deeplyNested(5000)), { k: '\ud800x' }, { 'a\u0000': 1 }]
            : [];
    for (const value of values) {
      // A raw `\ud800` must reach the server as the JSON escape, which JSON.stringify writes.
      out.push(encode(setAt(base, field.path, value as Json)));
    }
  }
  return out.slice(0, max);
}

const operationsOf = (document: OpenApiDocument) =>
  Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ method, path, operation: operation as OpenApiOperation })));

const takesSession = (operation: OpenApiOperation) => operation.security.some((requirement) => 'sessionCookie' in requirement);

/**
 * Sends hostile shapes to every operation of the app's description (NUL and lone surrogates in
 * each string field, 1e308 and 2^53+1 in each number, 5,000-deep nesting in each object, `%00`
 * and a lone-surrogate escape as each path parameter and query value) with each key; no answer
 * may be a 5xx. Session operations are left out (no session: 401 before any input is read).
 */
export function runBoundaryFuzz(options: BoundaryFuzzOptions): void {
  it('answers hostile input on every operation with a 4xx, never a 5xx', { timeout: 180_000 }, async () => {
    const app = options.app();
    const document = (await (await app.request('/openapi.json')).json()) as OpenApiDocument;
    const failures: string[] = [];
    let sent = 0;
    for (const { method, path, operation } of operationsOf(document)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (takesSession(operation) || options.skip?.includes(where)) continue;
      const pathParams = (operation.parameters ?? []).filter((p) => p.in === 'path');
      const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
      const plainUrl = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(options.pathValue?.(name, path) ?? 'fuzz'));
      const urls = new Set<string>();
      for (const hostile of ['%00', '%ED%A0%80', 'a%00b']) {
        // Each path parameter hostile in turn, the others real.
        for (const param of pathParams) {
          urls.add(path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === param.name ? hostile : encodeURIComponent(options.pathValue?.(name, path) ?? 'fuzz'))));
        }
        if (query.length > 0) urls.add(`${plainUrl}?${query.map((p) => `${p.name}=${hostile}`).join('&')}`);
      }
      const payloads = bodies(document, operation, options.maxBodiesPerOperation ?? 60);
      const requests: { url: string; body?: string }[] = [
        ...[...urls].map((url) => ({ url, ...(payloads.length > 0 ? { body: '{}' } : {}) })),
        ...payloads.map((body) => ({ url: plainUrl, body })),
      ];
      for (const key of options.keys()) {
        for (const request of requests) {
          const headers: Record<string, string> = { authorization: `Bearer ${key}` };
          if (request.body !== undefined) headers['content-type'] = 'application/json';
          const response = await app.request(request.url, { method: method.toUpperCase(), headers, ...(request.body === undefined ? {} : { body: request.body }) });
          sent++;
          if (response.status >= 500 && options.tolerateCodes?.length) {
            const code = ((await response.clone().json().catch(() => ({}))) as { error?: { code?: string } }).error?.code;
            if (code !== undefined && options.tolerateCodes.includes(code)) continue;
          }
          if (response.status >= 500) failures.push(`${where} ${request.url} ${request.body?.slice(0, 120) ?? ''} -> ${response.status} ${(await response.text()).slice(0, 200)}`);
          else await response.body?.cancel();
        }
      }
    }
    expect(sent).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });
}

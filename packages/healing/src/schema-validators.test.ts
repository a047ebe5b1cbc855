import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createSchemaValidators } from './schema-validators.js';
import { createOutputVerifier } from './verify-json-output.js';

const schemaNumber = (n: number) => ({ type: 'object', properties: { [`field${n}`]: { type: 'integer' } }, required: [`field${n}`] });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createSchemaValidators', () => {
  test('compiles a schema once, whatever object carries it', () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    const validators = createSchemaValidators();
    for (let i = 0; i < 5; i++) {
      const lookup = validators.get(schemaNumber(1), false);
      expect(lookup.ok && lookup.validate({ field1: 'x' })).toHaveLength(1);
    }
    expect(compile).toHaveBeenCalledTimes(1);
    // strict and non-strict are different validators of the same text
    validators.get(schemaNumber(1), true);
    expect(compile).toHaveBeenCalledTimes(2);
  });

  test('a new schema per request cannot grow memory: the LRU holds maxSchemas and ajv forgets the evicted ones', () => {
    const remove = vi.spyOn(Ajv2020.prototype, 'removeSchema');
    const validators = createSchemaValidators({ maxSchemas: 3 });
    for (let i = 0; i < 10; i++) validators.get(schemaNumber(i), false);
    expect(validators.size).toBe(3);
    expect(remove).toHaveBeenCalledTimes(7);
    // the most recent schemas are still served from the cache
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    validators.get(schemaNumber(9), false);
    expect(compile).not.toHaveBeenCalled();
  });

  test('the total size of cached schemas is bounded too', () => {
    const validators = createSchemaValidators({ maxSchemas: 100, maxCachedBytes: 1_000, maxSchemaBytes: 400 });
    const padded = (n: number) => ({ ...schemaNumber(n), description: 'x'.repeat(300) });
    for (let i = 0; i < 10; i++) validators.get(padded(i), false);
    expect(validators.size).toBeLessThanOrEqual(3);
  });

  test('unusable schemas are remembered, so a repeated bad schema is not recompiled', () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    const validators = createSchemaValidators();
    const bad = { type: 'objekt' };
    expect(validators.get(bad, false)).toMatchObject({ ok: false });
    expect(validators.get(bad, false)).toMatchObject({ ok: false });
    expect(compile).toHaveBeenCalledTimes(1);
  });

  test('the caller\'s schema object is never modified (strict closing and $schema removal work on a copy)', () => {
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'string' } } };
    const before = structuredClone(schema);
    const lookup = createSchemaValidators().get(schema, true);
    expect(lookup.ok && lookup.validate({ a: 'x', b: 1 }).map((error) => error.keyword)).toEqual(['additionalProperties']);
    expect(schema).toEqual(before);
  });

  test('warming up compiles once, so the first real schema does not pay for the compiler', () => {
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    const verifier = createOutputVerifier();
    expect(compile).not.toHaveBeenCalled();
    verifier.warmUp();
    expect(compile).toHaveBeenCalledTimes(1);
    expect(verifier.cachedSchemas).toBe(1);
  });
});

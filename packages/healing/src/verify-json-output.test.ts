import type { ResponseFormat } from '@svc/core';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { HealingChangeKind, VerifyStage } from './types.js';
import { createOutputVerifier, verifyJsonOutput } from './verify-json-output.js';

const jsonObject: ResponseFormat = { type: 'json_object' };
const person: ResponseFormat = {
  type: 'json_schema',
  name: 'person',
  strict: true,
  schema: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      age: { type: 'integer' },
      tags: { type: 'array', items: { type: 'string' } },
      level: { enum: ['low', 'high'] },
      active: { type: 'boolean' },
      nickname: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    },
    required: ['name', 'age'],
    additionalProperties: false,
  },
};

interface Row {
  case: string;
  format: ResponseFormat;
  input: string;
  stage: VerifyStage;
  valid: boolean;
  confidence: number;
  changes: HealingChangeKind[];
  /** The healed value (stages 1-2). */
  healed?: unknown;
  meaningAtRisk?: boolean;
  issues?: string[];
}

// Broken answers as models actually produce them, and what the verifier must make of them.
const table: Row[] = [
  { case: 'valid object', format: jsonObject, input: '{"a": 1}', stage: 0, valid: true, confidence: 1, changes: [] },
  { case: 'code fence', format: jsonObject, input: '```json\n{"a": 1}\n```', stage: 1, valid: true, confidence: 1, changes: ['strip_fence'], healed: { a: 1 } },
  { case: 'fence around a code sample', format: jsonObject, input: '```json\n{"code": "```py\\nprint(1)\\n```"}\n```', stage: 1, valid: true, confidence: 1, changes: ['strip_fence'], healed: { code: '```py\nprint(1)\n```' } },
  { case: 'bare fence', format: jsonObject, input: '```\n{"a": 1}\n```', stage: 1, valid: true, confidence: 1, changes: ['strip_fence'], healed: { a: 1 } },
  { case: 'prose around a fence', format: jsonObject, input: 'Here you go:\n```json\n{"a": 1}\n```\nAnything else?', stage: 1, valid: true, confidence: 0.95, changes: ['strip_prose'], healed: { a: 1 } },
  { case: 'prose before JSON', format: jsonObject, input: 'Sure! Here is the JSON: {"a": 1}', stage: 1, valid: true, confidence: 0.95, changes: ['strip_prose'], healed: { a: 1 } },
  { case: 'prose after JSON', format: jsonObject, input: '{"a": 1}\n\nLet me know if you need more.', stage: 1, valid: true, confidence: 0.95, changes: ['strip_prose'], healed: { a: 1 } },
  { case: 'stray brace in prose', format: jsonObject, input: 'Fill {name} in: {"name": "Ann"}', stage: 1, valid: true, confidence: 0.95, changes: ['strip_prose'], healed: { name: 'Ann' } },
  { case: 'double-encoded', format: jsonObject, input: '"{\\"a\\": 1}"', stage: 1, valid: true, confidence: 0.95, changes: ['unwrap_string'], healed: { a: 1 } },
  { case: 'trailing comma', format: jsonObject, input: '{"a": 1, "b": [1, 2,],}', stage: 1, valid: true, confidence: 0.9, changes: ['repair_syntax'], healed: { a: 1, b: [1, 2] } },
  { case: 'single quotes', format: jsonObject, input: "{'a': 'it\\'s'}", stage: 1, valid: true, confidence: 0.9, changes: ['repair_syntax'], healed: { a: "it's" } },
  { case: 'comments', format: jsonObject, input: '{\n  "a": 1, // the count\n  /* more */ "b": 2\n}', stage: 1, valid: true, confidence: 0.9, changes: ['repair_syntax'], healed: { a: 1, b: 2 } },
  { case: 'Python literals', format: jsonObject, input: "{'ok': True, 'value': None}", stage: 1, valid: true, confidence: 0.9, changes: ['repair_syntax'], healed: { ok: true, value: null } },
  { case: 'missing comma, unquoted key', format: jsonObject, input: '{a: 1\n"b": 2}', stage: 1, valid: true, confidence: 0.9, changes: ['repair_syntax'], healed: { a: 1, b: 2 } },
  { case: 'fence, prose and trailing comma', format: jsonObject, input: 'Result:\n```json\n{"a": 1,}\n```', stage: 1, valid: true, confidence: 0.86, changes: ['strip_prose', 'repair_syntax'], healed: { a: 1 } },
  { case: 'truncated in an array', format: jsonObject, input: '{"a": [1, 2', stage: 1, valid: true, confidence: 0.3, changes: ['complete_truncated'], healed: { a: [1, 2] }, meaningAtRisk: true },
  { case: 'truncated in a string', format: jsonObject, input: '{"summary": "The cat sat on', stage: 1, valid: true, confidence: 0.3, changes: ['complete_truncated'], healed: { summary: 'The cat sat on' }, meaningAtRisk: true },
  { case: 'truncated after a key', format: jsonObject, input: '{"name": "Ann", "age":', stage: 1, valid: true, confidence: 0.09, changes: ['complete_truncated', 'fill_null'], healed: { name: 'Ann', age: null }, meaningAtRisk: true },
  { case: 'missing value', format: jsonObject, input: '{"a": 1, "b": }', stage: 1, valid: true, confidence: 0.27, changes: ['repair_syntax', 'fill_null'], healed: { a: 1, b: null }, meaningAtRisk: true },
  { case: 'array for json_object', format: jsonObject, input: '[{"a": 1}]', stage: 3, valid: false, confidence: 0, changes: [], issues: ['(root) type: must be a JSON object'] },
  { case: 'plain prose', format: jsonObject, input: 'I cannot help with that.', stage: 3, valid: false, confidence: 0, changes: [], issues: ['(root) type: must be a JSON object'] },
  { case: 'empty answer', format: jsonObject, input: '', stage: 3, valid: false, confidence: 0, changes: [], issues: ['(root) parse: the answer is not JSON (Unexpected end of JSON input)'] },

  { case: 'schema: valid', format: person, input: '{"name": "Ann", "age": 42}', stage: 0, valid: true, confidence: 1, changes: [] },
  { case: 'schema: integer as string', format: person, input: '{"name": "Ann", "age": "42"}', stage: 2, valid: true, confidence: 0.8, changes: ['coerce_type'], healed: { name: 'Ann', age: 42 } },
  { case: 'schema: boolean as string', format: person, input: '{"name": "Ann", "age": 42, "active": "TRUE"}', stage: 2, valid: true, confidence: 0.8, changes: ['coerce_type'], healed: { name: 'Ann', age: 42, active: true } },
  { case: 'schema: number for a string', format: person, input: '{"name": 7, "age": 42}', stage: 2, valid: true, confidence: 0.8, changes: ['coerce_type'], healed: { name: '7', age: 42 } },
  { case: 'schema: single value for an array', format: person, input: '{"name": "Ann", "age": 42, "tags": "vip"}', stage: 2, valid: true, confidence: 0.8, changes: ['wrap_array'], healed: { name: 'Ann', age: 42, tags: ['vip'] } },
  { case: 'schema: one-element array for a scalar', format: person, input: '{"name": ["Ann"], "age": [42]}', stage: 2, valid: true, confidence: 0.8, changes: ['unwrap_array', 'unwrap_array'], healed: { name: 'Ann', age: 42 } },
  { case: 'schema: enum letter case', format: person, input: '{"name": "Ann", "age": 42, "level": " High"}', stage: 2, valid: true, confidence: 0.8, changes: ['match_enum_case'], healed: { name: 'Ann', age: 42, level: 'high' } },
  { case: 'schema: anyOf string|null', format: person, input: '{"name": "Ann", "age": 42, "nickname": 5}', stage: 2, valid: true, confidence: 0.8, changes: ['coerce_type'], healed: { name: 'Ann', age: 42, nickname: '5' } },
  { case: 'schema: extra property', format: person, input: '{"name": "Ann", "age": 42, "email": "a@b.c"}', stage: 2, valid: true, confidence: 0.6, changes: ['drop_property'], healed: { name: 'Ann', age: 42 } },
  { case: 'schema: fence + trailing comma + string number', format: person, input: '```json\n{"name": "Ann", "age": "42",}\n```', stage: 2, valid: true, confidence: 0.72, changes: ['strip_fence', 'repair_syntax', 'coerce_type'], healed: { name: 'Ann', age: 42 } },
  { case: 'schema: missing required is never filled', format: person, input: '{"name": "Ann"}', stage: 3, valid: false, confidence: 0, changes: [], issues: ["(root) required: must have required property 'age'"] },
  { case: 'schema: null is never turned into a value', format: person, input: '{"name": "Ann", "age": null}', stage: 3, valid: false, confidence: 0, changes: [], issues: ['/age type: must be integer'] },
  { case: 'schema: no rounding', format: person, input: '{"name": "Ann", "age": 41.5}', stage: 3, valid: false, confidence: 0, changes: [], issues: ['/age type: must be integer'] },
  { case: 'schema: ambiguous number text', format: person, input: '{"name": "Ann", "age": "about 40"}', stage: 3, valid: false, confidence: 0, changes: [], issues: ['/age type: must be integer'] },
  { case: 'schema: enum with no single match', format: person, input: '{"name": "Ann", "age": 42, "level": "medium"}', stage: 3, valid: false, confidence: 0, changes: [], issues: ['/level enum: must be equal to one of the allowed values: "low", "high"'] },
  { case: 'schema: truncated answer missing a required field', format: person, input: '{"name": "Ann", "ag', stage: 3, valid: false, confidence: 0, changes: [], issues: [
      '(root) truncated: the answer is cut off before the JSON is complete',
      "(root) required: must have required property 'age'",
      "(root) additionalProperties: must NOT have additional properties: 'ag'",
    ] },
];

describe('verifyJsonOutput: broken model outputs', () => {
  test.each(table)('$case', (row) => {
    const result = verifyJsonOutput(row.input, row.format);
    expect({ stage: result.stage, valid: result.valid, confidence: result.confidence }).toEqual({
      stage: row.stage,
      valid: row.valid,
      confidence: row.confidence,
    });
    expect(result.changes.map((change) => change.kind)).toEqual(row.changes);
    expect(result.meaningAtRisk).toBe(row.meaningAtRisk ?? false);
    expect(result.issues.map((issue) => `${issue.path || '(root)'} ${issue.keyword}: ${issue.message}`)).toEqual(row.issues ?? []);
    if (row.stage === 1 || row.stage === 2) {
      expect(JSON.parse(result.text)).toEqual(row.healed);
      expect(result.value).toEqual(row.healed);
      expect(result.report).toMatchObject({ original: row.input, healed: result.text, stage: row.stage, confidence: row.confidence });
      expect(result.report?.healing_time_ms).toBeGreaterThanOrEqual(0);
    } else {
      // Stage 0 and 3: the answer is returned exactly as the model wrote it, and nothing is reported.
      expect(result.text).toBe(row.input);
      expect(result.report).toBeUndefined();
    }
  });

  test('prose stripping keeps the JSON text exactly as written', () => {
    expect(verifyJsonOutput('Here:\n{ "a" : 1 }', jsonObject).text).toBe('{ "a" : 1 }');
  });

  test('finish_reason length turns any repair into a flagged completion', () => {
    const result = verifyJsonOutput('{"a": 1, "b": [1,]}', jsonObject, { finishReason: 'length' });
    expect(result.changes.map((change) => change.kind)).toEqual(['complete_truncated']);
    expect(result.meaningAtRisk).toBe(true);
    expect(verifyJsonOutput('{"a": 1}', jsonObject, { finishReason: 'length' }).stage).toBe(0);
  });

  test('a truncated answer that cannot be repaired says so', () => {
    const result = verifyJsonOutput('```json\n{"a": {"b": [', person, { finishReason: 'length' });
    expect(result.valid).toBe(false);
    expect(result.stage).toBe(3);
  });

  test('text formats are not checked', () => {
    expect(verifyJsonOutput('not json', { type: 'text' })).toMatchObject({ valid: true, stage: 0, text: 'not json' });
  });

  test('a key named __proto__ stays a plain key while the object is healed', () => {
    const result = verifyJsonOutput('{"name": "Ann", "age": "42", "__proto__": {"polluted": true}}', {
      type: 'json_schema',
      name: 'open',
      schema: { type: 'object', properties: { age: { type: 'integer' } } },
    });
    expect(result.stage).toBe(2);
    expect(JSON.parse(result.text)).toEqual(JSON.parse('{"name": "Ann", "age": 42, "__proto__": {"polluted": true}}'));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('json_schema: strict', () => {
  const open = {
    type: 'object',
    properties: { name: { type: 'string' }, address: { type: 'object', properties: { city: { type: 'string' } } } },
    required: ['name'],
  };

  test('strict: true closes objects that say nothing about extra properties, so extras are dropped', () => {
    const input = '{"name": "Ann", "mood": "ok", "address": {"city": "Oslo", "zip": "0150"}}';
    const result = verifyJsonOutput(input, { type: 'json_schema', name: 'p', strict: true, schema: open });
    expect(result.stage).toBe(2);
    expect(result.changes.map((change) => change.path)).toEqual(['/mood', '/address/zip']);
    expect(JSON.parse(result.text)).toEqual({ name: 'Ann', address: { city: 'Oslo' } });
  });

  test('without strict the schema is applied as written: extra properties are allowed', () => {
    const input = '{"name": "Ann", "mood": "ok"}';
    expect(verifyJsonOutput(input, { type: 'json_schema', name: 'p', schema: open }).stage).toBe(0);
    expect(verifyJsonOutput(input, { type: 'json_schema', name: 'p', strict: false, schema: open }).stage).toBe(0);
  });

  test('strict leaves allOf members open, so composed schemas keep validating', () => {
    const composed = { allOf: [{ type: 'object', properties: { a: { type: 'integer' } } }, { type: 'object', properties: { b: { type: 'integer' } } }] };
    const result = verifyJsonOutput('{"a": 1, "b": 2}', { type: 'json_schema', name: 'c', strict: true, schema: composed });
    expect(result.stage).toBe(0);
  });

  test('properties are not dropped for an anyOf branch the answer does not take', () => {
    const either = {
      anyOf: [
        { type: 'object', properties: { kind: { const: 'a' }, x: { type: 'integer' } }, required: ['kind'], additionalProperties: false },
        { type: 'object', properties: { kind: { const: 'b' }, y: { type: 'integer' } }, required: ['kind'], additionalProperties: false },
      ],
    };
    const format: ResponseFormat = { type: 'json_schema', name: 'e', schema: either };
    expect(verifyJsonOutput('{"kind": "b", "y": 2}', format).stage).toBe(0);
    const wrong = verifyJsonOutput('{"kind": "b", "x": 2}', format);
    expect(wrong.stage).toBe(3);
    expect(wrong.text).toBe('{"kind": "b", "x": 2}');
  });
});

describe('json_schema: schemas callers send', () => {
  test('a draft-07 $schema (zod-to-json-schema, Pydantic) is validated with 2020-12 rules instead of failing', () => {
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    const result = verifyJsonOutput('{"n": "3"}', { type: 'json_schema', name: 'd7', schema });
    expect(result).toMatchObject({ stage: 2, valid: true, text: '{"n":3}' });
    expect(result.schemaUnusable).toBeUndefined();
  });

  test('formats are checked (ajv-formats)', () => {
    const schema = { type: 'object', properties: { at: { type: 'string', format: 'date' } } };
    expect(verifyJsonOutput('{"at": "2026-02-30x"}', { type: 'json_schema', name: 'f', schema }).issues).toEqual([
      { path: '/at', keyword: 'format', message: 'must match format "date"' },
    ]);
  });

  test('an invalid, oversized or too deep schema falls back to the json_object check and says why', () => {
    const verifier = createOutputVerifier({ maxSchemaBytes: 400, maxSchemaDepth: 6 });
    const invalid = verifier.verify('{"a": 1}', { type: 'json_schema', name: 'x', schema: { type: 'objekt' } });
    expect(invalid).toMatchObject({ valid: true, stage: 0 });
    expect(invalid.schemaUnusable).toMatch(/^the schema is invalid/);

    const large = { type: 'object', description: 'x'.repeat(500) };
    expect(verifier.verify('[1]', { type: 'json_schema', name: 'x', schema: large })).toMatchObject({
      valid: false,
      schemaUnusable: 'the schema is larger than 400 bytes',
    });

    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 5; i++) deep = { type: 'object', properties: { n: deep } };
    expect(verifier.verify('{}', { type: 'json_schema', name: 'x', schema: deep }).schemaUnusable).toBe(
      'the schema nests deeper than 6 levels',
    );
  });

  test('a schema whose root may be an array finds the array in prose', () => {
    const list: ResponseFormat = { type: 'json_schema', name: 'l', schema: { type: 'array', items: { type: 'integer' } } };
    expect(verifyJsonOutput('The numbers: [1, 2, "3"]', list)).toMatchObject({ valid: true, stage: 2, text: '[1,2,3]' });
  });
});

describe('properties', () => {
  const objects = fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 8 });
  const indent = fc.constantFrom(undefined, 2, '\t');

  test('valid JSON is never altered: stage 0, same text, no report', () => {
    fc.assert(
      fc.property(objects, indent, fc.constantFrom('', ' ', '\n'), (value, space, pad) => {
        const text = pad + JSON.stringify(value, null, space) + pad;
        const result = verifyJsonOutput(text, jsonObject);
        expect(result).toMatchObject({ valid: true, stage: 0, text, confidence: 1 });
        expect(result.report).toBeUndefined();
      }),
    );
  });

  test('answers that already match their schema are never altered', () => {
    const people = fc.record(
      { name: fc.string(), age: fc.integer(), tags: fc.array(fc.string()), level: fc.constantFrom('low', 'high'), active: fc.boolean() },
      { requiredKeys: ['name', 'age'] },
    );
    fc.assert(
      fc.property(people, indent, (value, space) => {
        const text = JSON.stringify(value, null, space);
        expect(verifyJsonOutput(text, person)).toMatchObject({ valid: true, stage: 0, text });
      }),
    );
  });

  test('removing a code fence keeps the value exactly, with confidence 1', () => {
    fc.assert(
      fc.property(objects, indent, (value, space) => {
        const json = JSON.stringify(value, null, space);
        const result = verifyJsonOutput('```json\n' + json + '\n```', jsonObject);
        expect(result).toMatchObject({ stage: 1, confidence: 1, text: json });
      }),
    );
  });
});

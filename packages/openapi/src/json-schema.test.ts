import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { SchemaConverter } from './json-schema.js';

const convert = (schema: v.GenericSchema) => {
  const converter = new SchemaConverter();
  const json = converter.convert(schema);
  return { json, converter };
};

describe('SchemaConverter', () => {
  it('keeps every limit JSON Schema can say, in the 2020-12 dialect without $schema', () => {
    const { json, converter } = convert(
      v.object({
        n: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(8))),
        model: v.pipe(v.string(), v.minLength(1)),
        seed: v.optional(v.pipe(v.number(), v.ltValue(2 ** 64))),
        mode: v.picklist(['a', 'b']),
      }),
    );
    expect(json).toEqual({
      type: 'object',
      properties: {
        n: { anyOf: [{ type: 'integer', minimum: 1, maximum: 8 }, { type: 'null' }] },
        model: { type: 'string', minLength: 1 },
        seed: { type: 'number', exclusiveMaximum: 2 ** 64 },
        mode: { type: 'string', enum: ['a', 'b'] },
      },
      required: ['model', 'mode'],
    });
    expect(converter.problems).toEqual([]);
  });

  it('shows every branch of a lazy that picks one by the JSON kind of the input, without the ones that only fail', () => {
    const stop = v.lazy((input) => (Array.isArray(input) ? v.array(v.string()) : v.string()));
    const item = v.lazy((input) => (typeof input === 'object' && input !== null ? v.object({ a: v.string() }) : v.custom<never>(() => false, 'must be an object')));
    expect(convert(stop).json).toEqual({ anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] });
    expect(convert(item).json).toEqual({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
  });

  it('describes what it cannot express with the valibot message instead of failing', () => {
    const { json, converter } = convert(
      v.object({
        parameters: v.custom<object>((input) => typeof input === 'object', 'must be a JSON object'),
        part: v.pipe(v.object({ url: v.optional(v.string()), id: v.optional(v.string()) }), v.check((p) => p.url !== undefined || p.id !== undefined, 'must have url or id')),
        when: v.date(),
      }),
    );
    expect(json.properties).toEqual({
      parameters: { description: 'Checked by the server: must be a JSON object.' },
      part: { type: 'object', properties: { url: { type: 'string' }, id: { type: 'string' } }, required: [], description: 'Checked by the server: must have url or id.' },
      when: { description: 'Not expressible in JSON Schema (valibot "date"); checked by the server.' },
    });
    expect(converter.problems).toEqual([]);
  });

  it('documents the shape behind a guard, and the input before a type-changing transformation', () => {
    const notArray = v.custom<unknown>((input) => !Array.isArray(input), 'must be an object');
    const integer = v.pipe(v.string(), v.regex(/^\d+$/, 'must be an integer'), v.transform(Number));
    const { json } = convert(
      v.object({
        block: v.pipe(notArray, v.object({ flag: v.optional(v.boolean()) })),
        days: v.optional(v.pipe(integer, v.description('Window in days.'), v.transform((n) => Math.min(n, 365)), v.minValue(1)), '7'),
        name: v.pipe(v.string(), v.trim(), v.minLength(1)),
      }),
    );
    expect(json.properties).toEqual({
      block: { type: 'object', properties: { flag: { type: 'boolean' } }, required: [] },
      days: { type: 'string', pattern: '^\\d+$', description: 'Window in days.', default: '7' },
      name: { type: 'string', minLength: 1, description: 'Surrounding whitespace is trimmed first.' },
    });
  });

  it('writes multipart files as binary strings', () => {
    expect(convert(v.object({ file: v.blob() })).json.properties).toEqual({ file: { type: 'string', contentMediaType: 'application/octet-stream' } });
  });

  it('turns a recursive schema into a component and references it', () => {
    type Tree = { children: Tree[] };
    const tree: v.GenericSchema<Tree> = v.object({ children: v.array(v.lazy(() => tree)) });
    const { json, converter } = convert(tree);
    const ref = (json.properties as { children: { items: { $ref: string } } }).children.items.$ref;
    expect(ref).toMatch(/^#\/components\/schemas\/Recursive\d+_\d+$/);
    expect(Object.keys(converter.definitions)).toEqual([ref.split('/').at(-1)]);
  });

  it('references the named sub-schemas it is given', () => {
    const error = v.object({ message: v.string() });
    const converter = new SchemaConverter();
    expect(converter.convert(v.object({ error }), { Error: error })).toEqual({ type: 'object', properties: { error: { $ref: '#/components/schemas/Error' } }, required: ['error'] });
    expect(converter.definitions.Error).toEqual({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
  });
});

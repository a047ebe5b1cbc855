import type { ResponseFormat } from '@svc/core';
import { describe, expect, test } from 'vitest';
import { createOutputVerifier } from './verify-json-output.js';

// An order of 2 KB as a model writes it, and the same answer broken the usual ways.
const order: ResponseFormat = {
  type: 'json_schema',
  name: 'order',
  strict: true,
  schema: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      customer: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } }, required: ['name', 'email'] },
      lines: {
        type: 'array',
        items: {
          type: 'object',
          properties: { sku: { type: 'string' }, title: { type: 'string' }, quantity: { type: 'integer' }, price: { type: 'number' } },
          required: ['sku', 'title', 'quantity', 'price'],
        },
      },
      notes: { type: 'string' },
    },
    required: ['id', 'customer', 'lines', 'notes'],
  },
};
const value = {
  id: 'ord_123456',
  customer: { name: 'Ann Example', email: 'ann@example.com' },
  lines: Array.from({ length: 18 }, (_, i) => ({ sku: `SKU-${1000 + i}`, title: `Item number ${i} in the order`, quantity: i + 1, price: 9.99 + i })),
  notes: 'Leave the parcel at the door. '.repeat(3),
};
const valid = JSON.stringify(value, null, 1);
const fencedWithTrailingComma = '```json\n' + valid.replace(/\n}$/, ',\n}') + '\n```';
const quantitiesAsStrings = valid.replace(/"quantity": (\d+)/g, '"quantity": "$1"');

function meanMicros(run: () => void, iterations: number): number {
  for (let i = 0; i < 200; i++) run();
  const started = performance.now();
  for (let i = 0; i < iterations; i++) run();
  return ((performance.now() - started) / iterations) * 1000;
}

describe('cost per answer (2 KB)', () => {
  test('verification stays far below a millisecond once the schema is compiled', () => {
    const verifier = createOutputVerifier();
    expect(valid.length).toBeGreaterThan(1800);
    expect(valid.length).toBeLessThan(2600);
    const cases = { valid, fencedWithTrailingComma, quantitiesAsStrings };
    const stages = Object.values(cases).map((text) => verifier.verify(text, order).stage);
    expect(stages).toEqual([0, 1, 2]);
    for (const text of Object.values(cases)) {
      // Measured on the development machine (Node 20): about 15-30 µs at stage 0, 200 µs at stage 1
      // (jsonrepair is most of it) and 130-270 µs at stage 2. The bound is several times that: it
      // catches an accidental quadratic path without flaking on a busy CI runner.
      expect(meanMicros(() => verifier.verify(text, order), 1000)).toBeLessThan(2000);
    }
  });
});

import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defineRoute, pathParamNames } from './define-route.js';
import { bearer } from './route-descriptor.js';

const base = {
  method: 'get',
  path: '/v1/things/{id}',
  operationId: 'getThing',
  summary: 'A thing',
  tags: ['Things'],
  auth: bearer(),
  responses: { 200: { description: 'The thing.' } },
} as const;

describe('defineRoute', () => {
  it('returns the descriptor unchanged', () => {
    expect(defineRoute(base)).toBe(base);
    expect(pathParamNames('/v1/orgs/{id}/tools/{name}')).toEqual(['id', 'name']);
  });

  it.each([
    ['a path without a leading slash', { path: 'v1/things' }, /must start with \//],
    ['an unbalanced brace', { path: '/v1/things/{id' }, /\{name\} parameters/],
    ['a parameter schema not in the path', { params: v.object({ other: v.string() }) }, /'other' is not in the path/],
    ['a greedy parameter not in the path', { greedyParams: ['slug'] }, /'slug' is not in the path/],
    ['no response', { responses: {} }, /at least one response/],
    ['a deprecation without enough notice', { deprecation: { deprecatedAt: '2026-01-01', sunsetAt: '2026-02-01', migrationUrl: 'https://x.test/m', replacement: 'y' } }, /90 days/],
  ])('throws at definition on %s', (_, patch, message) => {
    expect(() => defineRoute({ ...base, ...patch })).toThrow(message);
  });
});

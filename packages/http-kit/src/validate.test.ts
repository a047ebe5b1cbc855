import { GatewayError, invalidRequest } from '@svc/core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { validate } from './validate.js';

const parts = v.object({
  name: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty')),
  parts: v.array(v.union([v.object({ type: v.literal('text'), text: v.string('must be a string') }), v.string()], 'must be a part')),
});

function thrown(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error;
  }
  throw new Error('expected a GatewayError');
}

describe('validate', () => {
  it('returns the parsed output', () => {
    expect(validate(parts, { name: 'a', parts: ['x'] })).toEqual({ name: 'a', parts: ['x'] });
  });

  it('is a 400 naming the field by its dotted path', () => {
    const error = thrown(() => validate(parts, { name: '', parts: [] }));
    expect(error.status).toBe(400);
    expect(error.toBody()).toMatchObject({ type: 'invalid_request_error', param: 'name', message: 'name: must not be empty' });
  });

  it('names the deepest field when a union option matched the type but failed inside', () => {
    const error = thrown(() => validate(parts, { name: 'a', parts: [{ type: 'text', text: 3 }] }));
    expect(error.toBody()).toMatchObject({ param: 'parts.0.text', message: 'parts.0.text: must be a string' });
  });

  it('has no param at the root', () => {
    expect(thrown(() => validate(parts, 'nope')).toBody()).toMatchObject({ param: null });
  });

  it('words the error through the given mapper', () => {
    const error = thrown(() => validate(parts, { name: '', parts: [] }, (issue) => invalidRequest(`custom ${issue.message}`, null)));
    expect(error.toBody()).toMatchObject({ message: 'custom must not be empty' });
  });
});

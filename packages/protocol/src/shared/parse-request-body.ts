import { invalidRequest } from '@svc/core';
import * as v from 'valibot';
import { issueToError } from './issue-to-error.js';

const parseConfig = { abortEarly: true } as const;

/**
 * Validates a request body against a wire schema: 400 when the body is not a JSON object, else
 * the first valibot issue as a 400 naming its field (see `issueToError`).
 */
export function parseRequestBody<const S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidRequest('The request body must be a JSON object.', null);
  }
  const result = v.safeParse(schema, body, parseConfig);
  if (!result.success) throw issueToError(result.issues[0]);
  return result.output;
}

import { type GatewayError, invalidRequest } from '@svc/core';
import type * as v from 'valibot';

const MAX_RECEIVED_CHARS = 60;

/** The dotted wire path of an issue (`messages.0.role`), or null at the root. */
export function issuePath(issue: v.BaseIssue<unknown>): string | null {
  const path = issue.path;
  if (path === undefined || path.length === 0) return null;
  let out = String(path[0]!.key);
  for (let i = 1; i < path.length; i++) out += '.' + String(path[i]!.key);
  return out;
}

/**
 * Turns the first valibot issue of a failed request parse into the spec's 400
 * `invalid_request_error` / `validation_error`, with `param` set to the dotted path of the
 * offending field. Messages follow OpenAI's wording: "Missing required parameter: 'model'." and
 * "Invalid 'temperature': must be a number between 0 and 2 (got 2.1).".
 */
export function issueToError(issue: v.BaseIssue<unknown>): GatewayError {
  const param = issuePath(issue);
  const name = param ?? 'body';
  // Every optional field is nullish, so `undefined` only ever reaches a required field's schema.
  if (issue.input === undefined && issue.kind === 'schema') {
    return invalidRequest(`Missing required parameter: '${name}'.`, param);
  }
  let received = issue.received;
  if (received.length > MAX_RECEIVED_CHARS) received = received.slice(0, MAX_RECEIVED_CHARS) + '...';
  return invalidRequest(`Invalid '${name}': ${issue.message} (got ${received}).`, param);
}

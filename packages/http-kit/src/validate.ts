import { type GatewayError, invalidRequest } from '@svc/core';
import * as v from 'valibot';

type Issue = v.BaseIssue<unknown>;
type PathItem = NonNullable<Issue['path']>[number];

/** Turns the first issue of a failed parse into the 400 the caller sees. */
export type IssueToError = (issue: Issue) => GatewayError;

/**
 * The path and message to report. A union reports one issue for all its options, with the
 * options' issues nested (their paths relative to the union); when an option matched the type but
 * failed deeper (an array of parts with a bad part), that deeper issue names the field.
 */
function specific(issue: Issue, prefix: readonly PathItem[] = []): { path: PathItem[]; message: string } {
  const path = [...prefix, ...(issue.path ?? [])];
  let best = { path, message: issue.message };
  for (const nested of issue.issues ?? []) {
    const candidate = specific(nested, path);
    if (candidate.path.length > best.path.length) best = candidate;
  }
  return best;
}

/** The default 400: `field.path: message`, `param` the dotted path of the deepest failing field (null at the root). */
export function fieldIssueError(first: Issue): GatewayError {
  const issue = specific(first);
  const param = issue.path.length > 0 ? issue.path.map((item) => String(item.key)).join('.') : null;
  return invalidRequest(param ? `${param}: ${issue.message}` : issue.message, param);
}

/**
 * Validates a body (or query) with a valibot schema, stopping at the first issue, which becomes a
 * 400 through `toError` ({@link fieldIssueError} unless the API words its errors otherwise).
 */
export function validate<const TSchema extends v.GenericSchema>(schema: TSchema, input: unknown, toError: IssueToError = fieldIssueError): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return result.output;
  throw toError(result.issues[0]);
}

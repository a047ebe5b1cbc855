import { invalidRequest } from '@svc/core';
import * as v from 'valibot';

type Issue = v.BaseIssue<unknown>;
type PathItem = NonNullable<Issue['path']>[number];

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

/** A query parameter holding a whole number (sign allowed, at most 15 digits), as a number. */
export const integerParam = v.pipe(
  v.string(),
  v.regex(/^[+-]?\d{1,15}$/, 'must be an integer'),
  v.transform((text) => Number(text)),
);

/** Validates a body with a valibot schema; the first issue becomes a 400 naming the field. */
export function validate<const TSchema extends v.GenericSchema>(schema: TSchema, input: unknown): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return result.output;
  const issue = specific(result.issues[0]);
  const param = issue.path.length > 0 ? issue.path.map((item) => String(item.key)).join('.') : null;
  throw invalidRequest(param ? `${param}: ${issue.message}` : issue.message, param);
}

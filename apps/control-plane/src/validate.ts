import { invalidRequest } from '@svc/core';
import * as v from 'valibot';

/** Validates a body with a valibot schema; the first issue becomes a 400 naming the field. */
export function validate<const TSchema extends v.GenericSchema>(schema: TSchema, input: unknown): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const param = issue.path?.map((item) => String(item.key)).join('.') ?? null;
  throw invalidRequest(param ? `${param}: ${issue.message}` : issue.message, param);
}

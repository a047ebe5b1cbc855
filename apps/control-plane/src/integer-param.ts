import * as v from 'valibot';

/** A query parameter holding a whole number (sign allowed, at most 15 digits), as a number. */
export const integerParam = v.pipe(
  v.string(),
  v.regex(/^[+-]?\d{1,15}$/, 'must be an integer'),
  v.transform((text) => Number(text)),
);

/**
 * Small valibot builders that carry the human message of each constraint, so a failed parse can
 * be turned into an OpenAI-style 400 without a lookup table (see `issue-to-error.ts`). Every
 * message completes the sentence "Invalid 'param': <message>".
 */
import * as v from 'valibot';

/** A JSON string. */
export const str = () => v.string('must be a string');

/** A non-empty JSON string. */
export const nonEmptyStr = () => v.pipe(v.string('must be a non-empty string'), v.minLength(1, 'must be a non-empty string'));

/** A JSON boolean. */
export const bool = () => v.boolean('must be a boolean');

/** A finite number in [min, max]. */
export function num(min: number, max: number) {
  const message = `must be a number between ${min} and ${max}`;
  return v.pipe(v.number(message), v.minValue(min, message), v.maxValue(max, message));
}

/** An integer in [min, max] (either bound may be a safe-integer limit). */
export function int(min: number, max: number) {
  const message =
    max === Number.MAX_SAFE_INTEGER ? `must be an integer >= ${min}` : `must be an integer between ${min} and ${max}`;
  return v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
}

/** A number strictly greater than zero. */
export const positiveNum = () =>
  v.pipe(v.number('must be a positive number'), v.gtValue(0, 'must be a positive number'));

/** One of the given string (or number) literals. */
export function oneOf<const T extends readonly (string | number)[]>(values: T) {
  const list = values.map((value) => (typeof value === 'string' ? `'${value}'` : String(value))).join(', ');
  return v.picklist(values, `must be one of ${list}`);
}

/** The literal string `value`. */
export const literal = <const T extends string>(value: T) => v.literal(value, `must be '${value}'`);

/** A JSON object (checked shallowly, kept by reference: JSON Schemas are data, not walked). */
export const jsonObject = () =>
  v.custom<Record<string, unknown>>(
    (input) => typeof input === 'object' && input !== null && !Array.isArray(input),
    'must be a JSON object',
  );

/** A JSON object whose values are all strings. */
export const stringRecord = () => v.record(v.string('must be a string'), v.string('must be a string'), 'must be an object');

/** An object with the given entries; unknown keys are dropped, not rejected. */
export function obj<const E extends v.ObjectEntries>(entries: E) {
  return v.object(entries, 'must be an object');
}

const notArray = v.custom<unknown>((input) => !Array.isArray(input), 'must be an object');

/**
 * Like {@link obj} but also rejects arrays, which `v.object` lets through; use it for objects
 * whose fields are all optional (an array would otherwise pass as an empty object).
 */
export function block<const E extends v.ObjectEntries>(entries: E) {
  return v.pipe(notArray, v.object(entries, 'must be an object'));
}

/** An array of `item`. */
export const arr = <const T extends v.GenericSchema>(item: T) => v.array(item, 'must be an array');

/** An array of `item` with at least `minLength` elements. */
export function minArr<const T extends v.GenericSchema>(item: T, minLength: number) {
  const message = `must be an array with at least ${minLength} element${minLength === 1 ? '' : 's'}`;
  return v.pipe(v.array(item, message), v.minLength(minLength, message));
}

/**
 * An optional field that also accepts `null` (many clients send explicit nulls for unset
 * parameters); decoders treat `null` exactly like absence.
 */
export const opt = <const T extends v.GenericSchema>(schema: T) => v.nullish(schema);

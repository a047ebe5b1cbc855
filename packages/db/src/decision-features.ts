import { SCALAR_FEATURE_NAMES } from '@svc/core';

/**
 * A decision row's `details.features` as the decision log stores it: the router's 34 scalar
 * features (`scalarFeatures` of `@svc/router`) as one string of values in the order of
 * `SCALAR_FEATURE_NAMES` (`@svc/core`), `f1:0,f,9,...`, where a JSON object of 34 keys cost the
 * embedded store's thread ~20 µs a row to turn into jsonb (issue #34: ~25% of its CPU a proxied
 * request). The repositories give the object back when a row is read, with the keys in the order
 * jsonb gave them, so the reports, the API and the dashboard show what they showed. A record of
 * any other key set is stored as it is.
 */

/**
 * Format `f1`: the names as `SCALAR_FEATURE_NAMES` lists them since 2026-12-05 (the test pins
 * their digest). Rows already stored are read by it, so a change to the names is a new format
 * (`f2`) with `f1`'s names kept here for the old rows.
 */
const PREFIX = 'f1:';

/** jsonb's order of an object's keys (shorter first, then by bytes; the names are ASCII): the order a stored object was read back in. */
function jsonbOrder(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Each name's position in the packed string, in the order the object is rebuilt. */
const READ_ORDER = SCALAR_FEATURE_NAMES.map((name, at) => ({ name, at })).sort((a, b) => jsonbOrder(a.name, b.name));

/** One value as packed: `t`/`f`, a number's shortest text, empty for what JSON writes as null (NaN, infinities). */
function packValue(value: unknown): string | undefined {
  if (value === true) return 't';
  if (value === false) return 'f';
  if (typeof value !== 'number') return undefined;
  return Number.isFinite(value) ? String(value) : '';
}

function unpackValue(text: string): number | boolean | null {
  if (text === 't') return true;
  if (text === 'f') return false;
  return text === '' ? null : Number(text);
}

/** The features as stored: packed when the record holds exactly the `f1` names in their order with scalar values, else the record itself. */
export function packFeatures(features: Readonly<Record<string, unknown>>): string | Readonly<Record<string, unknown>> {
  let packed = PREFIX;
  let at = 0;
  for (const name in features) {
    const text = packValue(features[name]);
    if (name !== SCALAR_FEATURE_NAMES[at] || text === undefined) return features;
    packed += at === 0 ? text : `,${text}`;
    at++;
  }
  return at === SCALAR_FEATURE_NAMES.length ? packed : features;
}

/** A stored `features` value as the object it stands for (anything not packed by {@link packFeatures} as it is). */
export function unpackFeatures(stored: unknown): unknown {
  if (typeof stored !== 'string' || !stored.startsWith(PREFIX)) return stored;
  const values = stored.slice(PREFIX.length).split(',');
  if (values.length !== SCALAR_FEATURE_NAMES.length) return stored;
  const features: Record<string, number | boolean | null> = {};
  for (const { name, at } of READ_ORDER) features[name] = unpackValue(values[at]!);
  return features;
}

/** A decision row read from the store with its `details.features` unpacked (in place). */
export function withFeatures<T extends { details: Record<string, unknown> }>(row: T): T {
  const details = row.details;
  if (details !== null && typeof details === 'object' && typeof details.features === 'string') details.features = unpackFeatures(details.features);
  return row;
}

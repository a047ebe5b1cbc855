import * as v from 'valibot';

/**
 * The body of an admin or settings operation: an object with exactly these fields. An unknown
 * field is a 400 naming it (`param`), with the fields the operation knows, so a typo such as
 * `rpm_limt` never passes as "no limit" (issue #32).
 */
export function strictBody<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  const known = Object.keys(entries).join(', ');
  return v.strictObject(entries, (issue) => (issue.expected === 'never' ? `unknown field; this body takes ${known}` : 'the body must be a JSON object'));
}

/**
 * An unambiguous text of a JSON-like value with the object keys of every depth in sorted order,
 * so logically equal values encode equal whatever order their keys were written in. Members
 * whose value is `undefined` are left out, as `JSON.stringify` leaves them out; array order is
 * kept (it means something in every field we key on).
 *
 * Not JSON: strings, keys and arrays carry their length instead of being escaped and
 * delimited, which makes hashing a request about twice as fast as JSON would (the text is
 * only ever hashed). Strings are hashed as UTF-8, so two strings that differ only in which lone
 * surrogate they hold encode alike; a provider sees both as garbage too.
 */
export function canonicalEncoding(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return `s${value.length}:${value}`;
    case 'number':
      return `n${value};`;
    case 'boolean':
      return value ? 't' : 'f';
    case 'object':
      if (value === null) return 'z';
      return Array.isArray(value) ? encodeArray(value) : encodeObject(value as Record<string, unknown>);
    default:
      // undefined (and what JSON cannot hold) inside an array
      return 'u';
  }
}

function encodeArray(items: readonly unknown[]): string {
  let text = `a${items.length}[`;
  for (const item of items) text += canonicalEncoding(item);
  return text;
}

function encodeObject(record: Record<string, unknown>): string {
  let text = '{';
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member !== undefined) text += `${key.length}:${key}${canonicalEncoding(member)}`;
  }
  return `${text}}`;
}

/**
 * JSON text of `value` with object keys in code-unit order at every depth, so logically equal
 * values give equal text whatever order their keys were written in. Object members whose value
 * is `undefined` (or a function or symbol) are left out, as `JSON.stringify` leaves them out;
 * array order is kept (it means something in every field we key on).
 */
export function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ',';
      text += canonicalJson(value[i]);
    }
    return text + ']';
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let text = '{';
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    text += (first ? '' : ',') + JSON.stringify(key) + ':' + canonicalJson(member);
    first = false;
  }
  return text + '}';
}

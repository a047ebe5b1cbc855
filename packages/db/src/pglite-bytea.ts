import { types } from '@electric-sql/pglite';

/**
 * `bytea` to and from PostgreSQL's hex text in native code. PGlite's own converters go byte by
 * byte in JavaScript (a string per byte one way, a `parseInt` per byte the other): about a
 * second and tens of MB of garbage per MiB, growing faster than the value (a 40 MiB upload took
 * +630 MB and 8.3 s). `Buffer`'s hex codec does the same in one pass.
 */
function serializeBytea(value: unknown): string {
  if (!(value instanceof Uint8Array)) throw new TypeError('invalid input for bytea type');
  return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
}

function parseBytea(text: string): Uint8Array {
  const bytes = Buffer.from(text.slice(2), 'hex');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** PGlite's `serializers` and `parsers` options for `bytea`. */
export const PGLITE_BYTEA = {
  serializers: { [types.BYTEA]: serializeBytea },
  parsers: { [types.BYTEA]: parseBytea },
};

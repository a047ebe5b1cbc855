let table: Float32Array | undefined;

/** Every IEEE 754 half-precision value as a float, built once (256 KiB): decoding is one lookup. */
function halfTable(): Float32Array {
  if (table) return table;
  table = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const mantissa = h & 0x3ff;
    if (exponent === 0) table[h] = sign * mantissa * 2 ** -24;
    else if (exponent === 0x1f) table[h] = mantissa === 0 ? sign * Number.POSITIVE_INFINITY : Number.NaN;
    else table[h] = sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
  }
  return table;
}

/** The value of the `i`-th little-endian half in `bytes` (any alignment). */
export function halfAt(bytes: Uint8Array, i: number): number {
  return halfTable()[bytes[2 * i]! | (bytes[2 * i + 1]! << 8)]!;
}

/** Widens little-endian fp16 bytes to fp32 (exact: every half is a float). */
export function halfBytesToFloat(bytes: Uint8Array): Float32Array {
  const lookup = halfTable();
  const out = new Float32Array(bytes.byteLength >> 1);
  for (let i = 0; i < out.length; i++) out[i] = lookup[bytes[2 * i]! | (bytes[2 * i + 1]! << 8)]!;
  return out;
}

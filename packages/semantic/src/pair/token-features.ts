/**
 * A text's word pieces as a pair model reads them, in text order (`[CLS]`/`[SEP]` left out): each
 * one's id and the projection of its contextual state, `count x dimensions` row-major.
 */
export interface TokenFeatures {
  count: number;
  dimensions: number;
  ids: Int32Array;
  values: Float32Array;
}

/**
 * Packs features for storage with an entry, base64: per word piece its id (uint16: the
 * vocabulary has 30,522), a float32 scale and `dimensions` int8 codes (symmetric, scale = max
 * |value| / 127): d + 6 bytes a word piece instead of 4d + 4.
 */
export function encodeTokenFeatures(features: TokenFeatures): string {
  const { count, dimensions, values, ids } = features;
  const row = dimensions + 6;
  const bytes = Buffer.alloc(count * row);
  for (let t = 0; t < count; t++) {
    let max = 0;
    for (let k = 0; k < dimensions; k++) max = Math.max(max, Math.abs(values[t * dimensions + k]!));
    const scale = max / 127 || 1;
    bytes.writeUInt16LE(ids[t]! & 0xffff, t * row);
    bytes.writeFloatLE(scale, t * row + 2);
    for (let k = 0; k < dimensions; k++) bytes.writeInt8(Math.round(values[t * dimensions + k]! / scale), t * row + 6 + k);
  }
  return bytes.toString('base64');
}

/** The inverse of {@link encodeTokenFeatures}; undefined when the text is not `dimensions`-wide features. */
export function decodeTokenFeatures(packed: string, dimensions: number): TokenFeatures | undefined {
  const bytes = Buffer.from(packed, 'base64');
  const row = dimensions + 6;
  if (bytes.length === 0 || bytes.length % row !== 0) return undefined;
  const count = bytes.length / row;
  const ids = new Int32Array(count);
  const values = new Float32Array(count * dimensions);
  for (let t = 0; t < count; t++) {
    ids[t] = bytes.readUInt16LE(t * row);
    const scale = bytes.readFloatLE(t * row + 2);
    for (let k = 0; k < dimensions; k++) values[t * dimensions + k] = bytes.readInt8(t * row + 6 + k) * scale;
  }
  return { count, dimensions, ids, values };
}

/** Each word piece's first `d` numbers (the pair model's own, when the features carry more after them). */
export function firstColumns(f: TokenFeatures, d: number): TokenFeatures {
  if (f.dimensions === d) return f;
  const values = new Float32Array(f.count * d);
  for (let t = 0; t < f.count; t++) values.set(f.values.subarray(t * f.dimensions, t * f.dimensions + d), t * d);
  return { count: f.count, dimensions: d, ids: f.ids, values };
}

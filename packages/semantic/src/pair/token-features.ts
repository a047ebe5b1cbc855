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

/** The first byte of a {@link packStoredFeatures} packing (the int8 packing of the releases before it has none). */
const PACKED_Q4 = 0x34;
/** 4-bit codes are -7..7 around 8, so a nibble never reads as another row's byte by accident. */
const Q4_LEVELS = 7;

/** A block's scale as one byte: 2^((code - 128) / 16), rounded up so every value fits the codes. */
function scaleCode(max: number): number {
  if (!(max > 0)) return 0;
  return Math.min(255, Math.max(1, Math.ceil(16 * Math.log2(max / Q4_LEVELS)) + 128));
}
const scaleOf = (code: number) => (code === 0 ? 0 : 2 ** ((code - 128) / 16));

/** Each block's [start, end) columns in a row of `dimensions`. */
function blockRanges(starts: readonly number[], dimensions: number): [number, number][] {
  return starts.map((s, b) => [s, starts[b + 1] ?? dimensions]);
}

function packRow(values: Float32Array, offset: number, ranges: readonly [number, number][], out: Buffer, at: number): void {
  ranges.forEach(([from, to], b) => {
    let max = 0;
    for (let k = from; k < to; k++) max = Math.max(max, Math.abs(values[offset + k]!));
    const code = scaleCode(max);
    out[at + b] = code;
    const scale = scaleOf(code) || 1;
    for (let k = from; k < to; k++) {
      const nibble = Math.max(-Q4_LEVELS, Math.min(Q4_LEVELS, Math.round(values[offset + k]! / scale))) + 8;
      const byte = at + ranges.length + (k >> 1);
      out[byte] = k & 1 ? out[byte]! | (nibble << 4) : nibble;
    }
  });
}

/**
 * Packs features for storage with an entry at 4 bits a number (issue #27: half the bytes of
 * {@link encodeTokenFeatures}): a header (a format byte, the number of blocks, each block's first
 * column as uint16), then per word piece its id (uint16), one scale byte per block (the pair
 * model's own numbers and the fixed projection's have their own ranges) and a code of 4 bits per
 * number (symmetric, -7..7 times the block's scale). The readers compare rows by cosine within a
 * block, so a block's scale only needs to keep its codes in range. d / 2 + 2 + blocks bytes a word
 * piece instead of d + 6 (52 instead of 102 for role model v3's 96 numbers), and one byte of
 * padding where the length would be even.
 */
export function packStoredFeatures(features: TokenFeatures, blockStarts: readonly number[] = [0]): string {
  const { count, dimensions, values, ids } = features;
  const ranges = blockRanges(blockStarts, dimensions);
  const head = 2 + 2 * ranges.length;
  const row = 2 + ranges.length + Math.ceil(dimensions / 2);
  // An odd length: the previous releases' int8 reader (rows of d + 6 bytes, even) refuses it and reads the question from its text.
  const length = head + count * row;
  const bytes = Buffer.alloc(length + (length % 2 === 0 ? 1 : 0));
  [bytes[0], bytes[1]] = [PACKED_Q4, ranges.length];
  for (const [b, [from]] of ranges.entries()) bytes.writeUInt16LE(from, 2 + 2 * b);
  for (let t = 0; t < count; t++) {
    bytes.writeUInt16LE(ids[t]! & 0xffff, head + t * row);
    packRow(values, t * dimensions, ranges, bytes, head + t * row + 2);
  }
  return bytes.toString('base64');
}

/** The inverse of {@link packStoredFeatures}; undefined when the text is not such a packing of `dimensions`-wide features. */
export function unpackStoredFeatures(packed: string, dimensions: number): TokenFeatures | undefined {
  const bytes = Buffer.from(packed, 'base64');
  const blocks = bytes[1] ?? 0;
  const head = 2 + 2 * blocks;
  if (bytes[0] !== PACKED_Q4 || blocks === 0 || bytes.length < head) return undefined;
  const starts = Array.from({ length: blocks }, (_, b) => bytes.readUInt16LE(2 + 2 * b));
  if (starts[0] !== 0 || starts.some((s, b) => b > 0 && !(s > starts[b - 1]! && s < dimensions))) return undefined;
  const ranges = blockRanges(starts, dimensions);
  const row = 2 + blocks + Math.ceil(dimensions / 2);
  const pad = (bytes.length - head) % row;
  if (bytes.length % 2 === 0 || pad > 1) return undefined;
  const count = (bytes.length - head - pad) / row;
  const ids = new Int32Array(count);
  const values = new Float32Array(count * dimensions);
  for (let t = 0; t < count; t++) {
    const at = head + t * row;
    ids[t] = bytes.readUInt16LE(at);
    ranges.forEach(([from, to], b) => {
      const scale = scaleOf(bytes[at + 2 + b]!);
      for (let k = from; k < to; k++) values[t * dimensions + k] = (((bytes[at + 2 + blocks + (k >> 1)]! >> ((k & 1) * 4)) & 15) - 8) * scale;
    });
  }
  return { count, dimensions, ids, values };
}

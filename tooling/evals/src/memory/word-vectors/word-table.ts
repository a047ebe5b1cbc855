import { readFileSync } from 'node:fs';

/**
 * A compact table of word vectors (issue #35, twentieth pass): the most frequent words of a GloVe
 * table, each vector scaled to unit length and quantised to int8 with one float32 scale per
 * vector. Layout: "WV01", uint32 words, uint32 dimensions, uint32 bytes of the word list; the
 * words (UTF-8, one a line); zero padding to 4 bytes; the scales (float32); the vectors (int8).
 */
export interface WordTable {
  dimensions: number;
  /** A word's unit vector (lower-cased lookup), or undefined when the table lacks it. */
  vector(word: string): Float32Array | undefined;
}

const MAGIC = 'WV01';

/** Writes `vectors` (unit length or not: they are scaled here) in the table's layout. */
export function encodeWordTable(words: readonly string[], vectors: readonly ArrayLike<number>[], dimensions: number): Buffer {
  const list = Buffer.from(words.join('\n'), 'utf8');
  const padded = Math.ceil((16 + list.length) / 4) * 4;
  const out = Buffer.alloc(padded + words.length * 4 + words.length * dimensions);
  out.write(MAGIC, 0, 'ascii');
  out.writeUInt32LE(words.length, 4);
  out.writeUInt32LE(dimensions, 8);
  out.writeUInt32LE(list.length, 12);
  list.copy(out, 16);
  for (const [i, v] of vectors.entries()) {
    let norm = 0;
    for (let d = 0; d < dimensions; d++) norm += v[d]! * v[d]!;
    norm = Math.sqrt(norm) || 1;
    let most = 0;
    for (let d = 0; d < dimensions; d++) most = Math.max(most, Math.abs(v[d]! / norm));
    const scale = most / 127 || 1;
    out.writeFloatLE(scale, padded + i * 4);
    const at = padded + words.length * 4 + i * dimensions;
    for (let d = 0; d < dimensions; d++) out.writeInt8(Math.round(v[d]! / norm / scale), at + d);
  }
  return out;
}

/** Reads a table written by `encodeWordTable`; the vectors stay int8 until a word is looked up. */
export function decodeWordTable(buffer: Buffer): WordTable {
  if (buffer.toString('ascii', 0, 4) !== MAGIC) throw new Error('not a word table (WV01)');
  const [count, dimensions, listBytes] = [buffer.readUInt32LE(4), buffer.readUInt32LE(8), buffer.readUInt32LE(12)];
  const words = buffer.toString('utf8', 16, 16 + listBytes).split('\n');
  const padded = Math.ceil((16 + listBytes) / 4) * 4;
  const index = new Map<string, number>();
  // The first (most frequent) spelling wins.
  for (const [i, w] of words.entries()) if (!index.has(w)) index.set(w, i);
  const base = padded + count * 4;
  return {
    dimensions,
    vector(word) {
      const i = index.get(word.toLowerCase());
      if (i === undefined) return undefined;
      const scale = buffer.readFloatLE(padded + i * 4);
      const v = new Float32Array(dimensions);
      for (let d = 0; d < dimensions; d++) v[d] = buffer.readInt8(base + i * dimensions + d) * scale;
      return v;
    },
  };
}

/** Loads a table file. */
export const loadWordTable = (path: string): WordTable => decodeWordTable(readFileSync(path));

import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import type { Embedder } from '@svc/semantic';
import { type EmbedManyOptions, embedMany } from './embed-many.js';

/** The contents of a vector file: which embedder made the vectors, and for which texts. */
export interface VectorFile {
  /** The embedder's `id`. */
  embedder: string;
  dimensions: number;
  /** {@link textsFingerprint} of the texts, in order. */
  fingerprint: string;
  vectors: Float32Array[];
}

const MAGIC = 'SVCVEC1\n';

/** SHA-256 over the texts in order (length-prefixed, so `['ab']` and `['a', 'b']` differ). */
export function textsFingerprint(texts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const text of texts) hash.update(`${text.length}:`).update(text);
  return hash.digest('hex');
}

/**
 * Writes vectors as `SVCVEC1\n`, a uint32 (LE) header length, a JSON header (`embedder`,
 * `dimensions`, `count`, `fingerprint`), then `count x dimensions` float32 LE. Written to a
 * temporary name and renamed, so a reader never sees half a file.
 */
export async function writeVectorFile(path: string, file: VectorFile): Promise<void> {
  const header = Buffer.from(JSON.stringify({ embedder: file.embedder, dimensions: file.dimensions, count: file.vectors.length, fingerprint: file.fingerprint }));
  const data = new Float32Array(file.vectors.length * file.dimensions);
  file.vectors.forEach((v, i) => {
    if (v.length !== file.dimensions) throw new Error(`vector ${i} has ${v.length} dimensions, expected ${file.dimensions}`);
    data.set(v, i * file.dimensions);
  });
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, Buffer.concat([Buffer.from(MAGIC), length, header, Buffer.from(data.buffer)]));
  await rename(temporary, path);
}

/** Reads a file written by {@link writeVectorFile}; throws on a foreign or truncated file. */
export async function readVectorFile(path: string): Promise<VectorFile> {
  const bytes = await readFile(path);
  if (bytes.subarray(0, MAGIC.length).toString() !== MAGIC) throw new Error(`${path} is not a vector file`);
  const headerLength = bytes.readUInt32LE(MAGIC.length);
  const start = MAGIC.length + 4 + headerLength;
  const header = JSON.parse(bytes.subarray(MAGIC.length + 4, start).toString()) as { embedder: string; dimensions: number; count: number; fingerprint: string };
  const floats = header.count * header.dimensions;
  if (bytes.length - start !== floats * 4) throw new Error(`${path} is truncated: ${bytes.length - start} data bytes for ${header.count} vectors`);
  // Copied into an aligned buffer (the header length need not be a multiple of 4).
  const data = new Float32Array(floats);
  new Uint8Array(data.buffer).set(bytes.subarray(start));
  const vectors = Array.from({ length: header.count }, (_, i) => data.subarray(i * header.dimensions, (i + 1) * header.dimensions));
  return { embedder: header.embedder, dimensions: header.dimensions, fingerprint: header.fingerprint, vectors };
}

/**
 * The vectors of `texts` from the file at `path` when it was made by the same embedder for the
 * same texts; otherwise embeds them (with {@link embedMany}) and rewrites the file. For
 * evaluations that encode tens of thousands of texts once and rerun in seconds.
 */
export async function cachedEmbedMany(path: string, embedder: Embedder, texts: readonly string[], options?: EmbedManyOptions): Promise<Float32Array[]> {
  const fingerprint = textsFingerprint(texts);
  const existing = await readVectorFile(path).catch(() => undefined);
  if (existing && existing.embedder === embedder.id && existing.fingerprint === fingerprint && existing.vectors.length === texts.length) return existing.vectors;
  const vectors = await embedMany(embedder, texts, options);
  await writeVectorFile(path, { embedder: embedder.id, dimensions: embedder.dimensions, fingerprint, vectors });
  return vectors;
}

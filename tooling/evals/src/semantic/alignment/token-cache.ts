import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type SentenceEncoder, textsFingerprint } from '@svc/encoder';

/** Every text's sentence vector and its L2-normalised token states, in the order of `texts`. */
export interface TokenTable {
  texts: string[];
  index: Map<string, number>;
  vectors: Float32Array[];
  ids: Int32Array[];
  /** `ids[i].length x 384`, each row of unit length (cosines are dot products). */
  states: Float32Array[];
}

const D = 384;
const CHUNK = 4096;

function normaliseRows(states: Float32Array): Float32Array {
  const out = new Float32Array(states.length);
  for (let r = 0; r < states.length / D; r++) {
    let s = 0;
    for (let j = 0; j < D; j++) s += states[r * D + j]! ** 2;
    const k = 1 / Math.max(Math.sqrt(s), 1e-12);
    for (let j = 0; j < D; j++) out[r * D + j] = states[r * D + j]! * k;
  }
  return out;
}

/** One chunk on disk: int32 count, counts, ids, then float32 vectors and states. */
async function encodeChunk(encoder: SentenceEncoder, texts: readonly string[], file: string): Promise<void> {
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
  const rows = new Array<{ vector: Float32Array; ids: Int32Array; states: Float32Array }>(texts.length);
  for (let at = 0; at < order.length; at += 64) {
    const batch = order.slice(at, at + 64);
    const out = await encoder.embedWithTokens(batch.map((i) => texts[i]!));
    batch.forEach((i, j) => {
      rows[i] = { vector: out[j]!.vector, ids: Int32Array.from(out[j]!.tokens.ids), states: normaliseRows(out[j]!.tokens.states) };
    });
  }
  const counts = Int32Array.from(rows, (r) => r.ids.length);
  const parts = [Int32Array.of(texts.length), counts, ...rows.map((r) => r.ids), ...rows.map((r) => r.vector), ...rows.map((r) => r.states)];
  await writeFile(`${file}.tmp`, Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength))));
  await rename(`${file}.tmp`, file);
}

function readChunk(bytes: Buffer, table: TokenTable): void {
  const aligned = new Uint8Array(bytes.length);
  aligned.set(bytes);
  const ints = new Int32Array(aligned.buffer, 0, Math.floor(bytes.length / 4));
  const n = ints[0]!;
  const counts = ints.subarray(1, 1 + n);
  let at = 1 + n;
  for (const c of counts) {
    table.ids.push(ints.slice(at, at + c));
    at += c;
  }
  const floats = new Float32Array(aligned.buffer);
  for (let i = 0; i < n; i++, at += D) table.vectors.push(floats.subarray(at, at + D));
  for (const c of counts) {
    table.states.push(floats.subarray(at, at + c * D));
    at += c * D;
  }
}

/**
 * The token table of `texts` (distinct, sorted), computed once in chunks of 4,096 texts under
 * `dir/<fingerprint>/` (a rerun or a resumed run reads what is there).
 */
export async function tokenTable(dir: string, texts: readonly string[], encoder: () => SentenceEncoder): Promise<TokenTable> {
  const distinct = [...new Set(texts)].sort();
  const folder = join(dir, textsFingerprint(distinct).slice(0, 16));
  await mkdir(folder, { recursive: true });
  const table: TokenTable = { texts: distinct, index: new Map(distinct.map((t, i) => [t, i])), vectors: [], ids: [], states: [] };
  let model: SentenceEncoder | undefined;
  for (let from = 0; from < distinct.length; from += CHUNK) {
    const file = join(folder, `chunk-${String(from / CHUNK).padStart(3, '0')}.bin`);
    if (!existsSync(file)) {
      model ??= encoder();
      const started = performance.now();
      await encodeChunk(model, distinct.slice(from, from + CHUNK), file);
      console.error(`encoded ${Math.min(from + CHUNK, distinct.length)} / ${distinct.length} (${((performance.now() - started) / 1000).toFixed(0)} s this chunk)`);
    }
    readChunk(await readFile(file), table);
  }
  await model?.close();
  return table;
}

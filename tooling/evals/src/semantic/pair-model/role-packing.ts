/**
 * How a stored entry's packing of the pair features moves role model v3's decisions (issue #27:
 * halve the bytes an entry keeps). Only data that is ours: PAWS dev's training half, GPTCache's
 * pairs, the near misses and qqp-dev's training half (split by question); no held-out half is
 * read. Each pair's `a` is the stored question, packed by every candidate, and its `b` is asked
 * with the encoder's own float features, as a lookup asks; the pairs the cache routes to the
 * judge (cosine >= 0.85, the near-miss guard) are scored with the stored side as the previous
 * release packs it (int8) and as each candidate packs it, and the decisions at the shipped
 * threshold compared.
 *
 *   pnpm --filter @svc/evals semantic:packing [--features /tmp/svc-packing.bin] [--qqp 3000]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { decodeTokenFeatures, encodeTokenFeatures, keyTerms, mayShareAnswer, type PairReader, packStoredFeatures, semanticKeyOf, shippedPairReader, type TokenFeatures, unpackStoredFeatures } from '@svc/semantic';
import { chatRequest } from '@svc/semantic/test';
import { findDataDir, loadParaphrases, loadQqp } from '../dataset.js';
import { loadNearMisses } from '../near-misses.js';
import { loadPaws, splitBySource } from '../paws.js';
import { splitByQuestion } from '../split.js';

const { values } = parseArgs({ options: { features: { type: 'string', default: '/tmp/svc-packing.bin' }, qqp: { type: 'string', default: '3000' } } });

interface Encoded {
  vector: Float32Array;
  features: TokenFeatures;
}
interface Pair {
  set: string;
  a: string;
  b: string;
  label: boolean;
}

const dir = findDataDir(process.cwd());
const asked = (question: string): string => semanticKeyOf(chatRequest(question))?.text ?? question;
const pairs: Pair[] = [
  ...splitBySource(loadPaws(dir)).train.map((p) => ({ set: 'paws-train', a: p.a, b: p.b, label: p.duplicate })),
  ...loadParaphrases(dir).map((p) => ({ set: 'gptcache', a: p.origin, b: p.similar, label: true })),
  ...loadNearMisses().map((p) => ({ set: 'near-miss', a: p.a, b: p.b, label: false })),
  ...splitByQuestion(loadQqp(dir)).train.slice(0, Number(values.qqp)).map((p) => ({ set: 'qqp-train', a: p.a, b: p.b, label: p.duplicate })),
].map((p) => ({ ...p, a: asked(p.a), b: asked(p.b) }));

/** Every text's vector and float features, kept in one binary file so a rerun skips the encoder. */
async function encodeAll(texts: readonly string[], file: string, dims: number): Promise<Map<string, Encoded>> {
  if (existsSync(`${file}.json`)) {
    const kept = JSON.parse(readFileSync(`${file}.json`, 'utf8')) as { texts: string[]; counts: number[] };
    if (kept.texts.join('\n') === texts.join('\n')) return readEncoded(kept.texts, kept.counts, readFileSync(file), dims);
  }
  const encoder = createSentenceEncoder({ cacheSize: 256, niceness: 0 });
  const pair = encoder.pairReader!;
  const out = new Map<string, Encoded>();
  for (let i = 0; i < texts.length; i += 32) {
    const chunk = texts.slice(i, i + 32);
    const done = await Promise.all(chunk.map(async (t) => Promise.all([encoder.embed([t]), pair.features(t)])));
    for (const [k, [[vector], features]] of done.entries()) out.set(chunk[k]!, { vector: vector!, features });
    if (i % 1024 === 0) console.error(`encoded ${i} / ${texts.length}`);
  }
  await encoder.close();
  writeEncoded(texts, out, file);
  return out;
}

function writeEncoded(texts: readonly string[], table: Map<string, Encoded>, file: string): void {
  const parts: Buffer[] = [];
  for (const t of texts) {
    const e = table.get(t)!;
    parts.push(Buffer.from(e.vector.buffer, e.vector.byteOffset, e.vector.byteLength), Buffer.from(Int32Array.from(e.features.ids).buffer), Buffer.from(Float32Array.from(e.features.values).buffer));
  }
  writeFileSync(file, Buffer.concat(parts));
  writeFileSync(`${file}.json`, JSON.stringify({ texts, counts: texts.map((t) => table.get(t)!.features.count) }));
}

function readEncoded(texts: readonly string[], counts: readonly number[], bytes: Buffer, dims: number): Map<string, Encoded> {
  const out = new Map<string, Encoded>();
  let at = 0;
  const take = (n: number) => {
    const slice = bytes.buffer.slice(bytes.byteOffset + at, bytes.byteOffset + at + n);
    at += n;
    return slice;
  };
  texts.forEach((t, i) => {
    const count = counts[i]!;
    const vector = new Float32Array(take(384 * 4));
    const ids = new Int32Array(take(count * 4));
    const values = new Float32Array(take(count * dims * 4));
    out.set(t, { vector, features: { count, dimensions: dims, ids, values } });
  });
  return out;
}

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, k) => s + x * b[k]!, 0);

/** Columns before `at` from `first`, the rest from `rest`. */
function mixed(f: TokenFeatures, first: TokenFeatures, rest: TokenFeatures, at: number): TokenFeatures {
  const values = Float32Array.from(rest.values);
  for (let t = 0; t < f.count; t++) values.set(first.values.subarray(t * f.dimensions, t * f.dimensions + at), t * f.dimensions);
  return { ...f, values };
}

/** The stored side as each packing gives it back. */
function packings(blocks: readonly number[]): Record<string, (f: TokenFeatures) => TokenFeatures> {
  return {
    float: (f) => f,
    int8: (f) => decodeTokenFeatures(encodeTokenFeatures(f), f.dimensions)!,
    q4: (f) => unpackStoredFeatures(packStoredFeatures(f, blocks), f.dimensions)!,
    // Measurement only: one block at 4 bits, the other int8 (which block the decisions are sensitive to).
    q4pair: (f) => mixed(f, unpackStoredFeatures(packStoredFeatures(f, blocks), f.dimensions)!, decodeTokenFeatures(encodeTokenFeatures(f), f.dimensions)!, blocks[1]!),
    q4proj: (f) => mixed(f, decodeTokenFeatures(encodeTokenFeatures(f), f.dimensions)!, unpackStoredFeatures(packStoredFeatures(f, blocks), f.dimensions)!, blocks[1]!),
  };
}

function bytesPerPiece(sample: TokenFeatures, blocks: readonly number[]): Record<string, number> {
  const per = (s: string) => Buffer.from(s, 'base64').length / sample.count;
  return { float: 4 * sample.dimensions + 4, int8: per(encodeTokenFeatures(sample)), q4: per(packStoredFeatures(sample, blocks)) };
}

async function main(): Promise<void> {
  const encoder = createSentenceEncoder({ cacheSize: 4, niceness: 0 });
  const base = encoder.pairReader!;
  const reader: PairReader = shippedPairReader(base)!;
  const blocks = [0, base.context!.from];
  await encoder.close();
  const texts = [...new Set(pairs.flatMap((p) => [p.a, p.b]))].sort();
  const table = await encodeAll(texts, values.features, base.dimensions);
  const ways = packings(blocks);
  console.log(`role model threshold ${reader.threshold}; bytes per word piece:`, bytesPerPiece(table.get(texts[0]!)!.features, blocks));
  const rows = new Map<string, { routed: number; served: Record<string, number>; right: Record<string, number>; flips: Record<string, number>; dp: Record<string, number>; maxDp: Record<string, number> }>();
  for (const p of pairs) {
    const [ea, eb] = [table.get(p.a)!, table.get(p.b)!];
    const c = cosine(ea.vector, eb.vector);
    if (c < 0.85 || !mayShareAnswer(keyTerms(p.a), keyTerms(p.b))) continue;
    const row = rows.get(p.set) ?? { routed: 0, served: {}, right: {}, flips: {}, dp: {}, maxDp: {} };
    rows.set(p.set, row);
    row.routed++;
    const probs = Object.fromEntries(Object.entries(ways).map(([name, pack]) => [name, reader.score(eb.features, pack(ea.features), c)]));
    for (const [name, prob] of Object.entries(probs)) {
      const serve = prob >= reader.threshold;
      row.served[name] = (row.served[name] ?? 0) + (serve ? 1 : 0);
      row.right[name] = (row.right[name] ?? 0) + (serve && p.label ? 1 : 0);
      row.flips[name] = (row.flips[name] ?? 0) + (serve !== probs['int8']! >= reader.threshold ? 1 : 0);
      const dp = Math.abs(prob - probs['int8']!);
      row.dp[name] = (row.dp[name] ?? 0) + dp;
      row.maxDp[name] = Math.max(row.maxDp[name] ?? 0, dp);
    }
  }
  for (const [set, row] of rows) {
    console.log(`\n${set}: ${row.routed} pairs routed to the judge`);
    for (const name of Object.keys(ways)) {
      console.log(`  ${name.padEnd(6)} served ${row.served[name]}  (labelled alike ${row.right[name]}, other ${row.served[name]! - row.right[name]!})  flips vs int8 ${row.flips[name]}  mean|dp| ${(row.dp[name]! / row.routed).toFixed(4)}  max|dp| ${row.maxDp[name]!.toFixed(3)}`);
    }
  }
}

await main();

// Instructions per semantic lookup, independent of the machine's load (issue #27, docs/caching.md
// "Stored at 4 bits"). Run from a checkout, after a build:
//   node encode.mjs <checkout> /tmp/paws 4000 300     (the real encoder, once; both sides read its files)
//   valgrind --tool=callgrind --dump-before=uv_getrusage --callgrind-out-file=cg.<side> \
//     node lookups.mjs <checkout> /tmp/paws 300 100
// then `grep ^totals cg.<side>.*`: part 2 is the M lookups, part 4 the M unpacks of the asked
// texts' partners (packed as that checkout stores an entry).
// Phase B: the production semantic cache (memory store, shipped decision, role model v3 over a
// base reader that serves the encoder's recorded features) filled with the stored texts, then M
// lookups of the asked texts with their vectors given. process.cpuUsage() marks the phases
// (callgrind --dump-before=uv_getrusage): [setup+fill+warmup] [lookups] [unpacks] [rest].
import { readFileSync } from 'node:fs';
const [root, data] = process.argv.slice(2, 4);
const M = Number(process.argv[4] ?? 300);
const W = Number(process.argv[5] ?? 100);
const S = await import(`${root}/packages/semantic/dist/index.js`);
const d = JSON.parse(readFileSync(`${data}.json`, 'utf8'));
const f32 = (name) => { const b = readFileSync(`${data}.${name}`); return new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4); };
const vec = f32('vec'), feat = f32('feat'), tab = f32('table');
const rows = [];
let at = 0;
for (const [i, m] of d.meta.entries()) {
  const n = m.ids.length * d.dims;
  rows.push({ text: m.text, vector: vec.subarray(i * 384, (i + 1) * 384), features: { count: m.ids.length, dimensions: d.dims, ids: Int32Array.from(m.ids), values: feat.subarray(at, at + n) } });
  at += n;
}
const byText = new Map(rows.map((r) => [r.text, r]));
const table = new Map(d.tableIds.map((id, k) => [id, tab.subarray(k * d.tableCols, (k + 1) * d.tableCols)]));
const pairFile = JSON.parse(readFileSync(`${root}/packages/encoder/src/pair/minilm-pair-v1.json`, 'utf8'));
const head = S.parsePairHead(pairFile.head);
const minOverlap = pairFile.minOverlap ?? 0;
let queryFeatureCalls = 0;
const asked = rows.slice(d.stored);
const askedSet = new Set(asked.map((r) => r.text));
const base = {
  id: 'minilm-pair-v2', dimensions: d.dims, threshold: pairFile.threshold,
  context: { from: d.from, table: (id) => table.get(id) },
  async features(text) { if (askedSet.has(text)) queryFeatureCalls++; return byText.get(text).features; },
  score: (q, s, c) => (S.wordPieceOverlap(s, q) < minOverlap ? 1 : S.scorePair(head, s, q, c)),
};
const embedder = { id: 'all-MiniLM-L6-v2', dimensions: 384, async embed(texts) { return texts.map((t) => byText.get(t).vector.slice()); }, pairReader: base };
const cache = S.createSemanticCache({ embedder, store: S.createMemoryVectorStore({ capacity: 20000 }) });
const answer = { result: { id: 'x', model: 'gpt-4o-mini', created: 1, choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finishReason: 'stop' }], usage: { promptTokens: 2, completionTokens: 1, totalTokens: 3 } }, model: 'openai/gpt-4o-mini', provider: 'openai', tier: 'T3', storedAt: 1 };
const q = (text) => ({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: text }], stream: false, n: 1, includeUsage: false });
for (const r of rows.slice(0, d.stored)) await cache.store(q(r.text), 'o', answer, undefined);
const ask = (i) => asked[i % asked.length];
let hits = 0;
for (let i = 0; i < W; i++) await cache.lookup(q(ask(i).text), 'o', undefined, ask(i).vector);
queryFeatureCalls = 0;
const before = process.cpuUsage(); // dump: setup, fill, warm-up
for (let i = 0; i < M; i++) if ((await cache.lookup(q(ask(W + i).text), 'o', undefined, ask(W + i).vector))?.hit) hits++;
const spent = process.cpuUsage(before); // dump: M lookups
const packed = S.packStoredFeatures ? (f) => S.packStoredFeatures(f, [0, d.from]) : (f) => S.encodeTokenFeatures(f);
const unpack = S.unpackStoredFeatures ? (s) => S.unpackStoredFeatures(s, d.dims) : (s) => S.decodeTokenFeatures(s, d.dims);
const partners = Array.from({ length: M }, (_, i) => packed(rows[d.partners[(W + i) % asked.length]].features));
const reached = queryFeatureCalls;
let sum = 0;
for (let i = 0; i < W; i++) sum += unpack(partners[i % M]).count;
process.cpuUsage(); // dump: pack partners + unpack warm-up
for (let i = 0; i < M; i++) sum += unpack(partners[i]).count;
process.cpuUsage(); // dump: M unpacks (the partner of every asked text)
const pieces = partners.reduce((s, p) => s + unpack(p).count, 0) / M;
// cpuMsPerLookup: all threads' CPU over the M lookups (meaningful without valgrind only; load inflates it).
const cpuMsPerLookup = (spent.user + spent.system) / 1000 / M;
console.log(JSON.stringify({ side: S.packStoredFeatures ? 'q4' : 'int8', stored: d.stored, M, W, hits, reachedReader: reached, meanPiecesUnpacked: pieces, sum, cpuMsPerLookup }));

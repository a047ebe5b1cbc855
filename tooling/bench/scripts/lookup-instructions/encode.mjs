// Phase A (see lookups.mjs for the whole procedure): the real encoder computes vectors and pair features once; both sides read these files.
import { readFileSync, writeFileSync } from 'node:fs';
const [root, out] = process.argv.slice(2, 4);
const nStored = Number(process.argv[4] ?? 4000);
const nAsk = Number(process.argv[5] ?? 300);
const { createSentenceEncoder } = await import(`${root}/packages/encoder/dist/index.js`);
const norm = (s) => s.replace(/\s+/g, ' ').trim();
const pairs = readFileSync('/work/shared/data/semcache/paws-dev.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const fromPaws = [...new Set(pairs.map((p) => norm(p.a)))];
const pawsSet = new Set(pairs.flatMap((p) => [norm(p.a), norm(p.b)]));
// Past PAWS's 4,962 distinct `a` sentences, the store is filled with QQP dev's questions (never asked).
const quora = readFileSync('/work/shared/data/semcache/qqp-dev.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const fill = [...new Set(quora.flatMap((p) => [norm(p.a), norm(p.b)]))].filter((t) => !pawsSet.has(t));
const stored = [...fromPaws, ...fill].slice(0, nStored);
const index = new Map(stored.map((t, i) => [t, i]));
const asked = [];
const seen = new Set();
for (const p of pairs) {
  const a = norm(p.a), b = norm(p.b);
  if (!index.has(a) || index.has(b) || seen.has(b)) continue;
  seen.add(b);
  asked.push({ text: b, partner: index.get(a) });
}
asked.splice(nAsk);
const enc = createSentenceEncoder({ niceness: 0 });
await enc.ready;
const texts = [...stored, ...asked.map((q) => q.text)];
const meta = [];
const vecs = [];
const feats = [];
for (let i = 0; i < texts.length; i += 32) {
  const batch = texts.slice(i, i + 32);
  const vectors = await enc.embed(batch);
  for (const [k, t] of batch.entries()) {
    const f = await enc.pairReader.features(t);
    meta.push({ text: t, ids: Array.from(f.ids) });
    vecs.push(vectors[k]);
    feats.push(f.values);
  }
  if (i % 640 === 0) console.error(i, texts.length);
}
const idsSeen = [...new Set(meta.flatMap((r) => r.ids))];
const table = idsSeen.map((id) => enc.pairReader.context.table(id));
const cat = (arrs) => { const n = arrs.reduce((s, a) => s + a.length, 0); const o = new Float32Array(n); let at = 0; for (const a of arrs) { o.set(a, at); at += a.length; } return Buffer.from(o.buffer); };
writeFileSync(`${out}.vec`, cat(vecs));
writeFileSync(`${out}.feat`, cat(feats));
writeFileSync(`${out}.table`, cat(table));
writeFileSync(`${out}.json`, JSON.stringify({ stored: stored.length, partners: asked.map((q) => q.partner), from: enc.pairReader.context.from, dims: enc.pairReader.dimensions, tableIds: idsSeen, tableCols: table[0].length, meta }));
await enc.close();
console.error('done', stored.length, asked.length, enc.pairReader.dimensions);

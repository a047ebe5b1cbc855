/**
 * Training data for the attention pair reader (`attention-reader.ts`, `attention_train.py`): the
 * shared encoder's **frozen** per-word-piece token states of both texts of every pair, from
 * public NLI pairs (SNLI, `--snli` files: premise A, hypothesis B, gold label), optionally PAWS-Wiki's
 * dev pairs (`--paws`, /work/shared/data/semcache/paws-dev.jsonl) and the templated
 * tuning pairs of `relation-pairs.ts` (tuning attributes only; nothing held out is read).
 *
 * Writes into `--out` (default /tmp/attention-dump): `states.f32` (every distinct text's states,
 * row after row, 384 float32 a word piece), `texts.jsonl` (per text: its first row and row count),
 * `pairs.jsonl` (per pair: the two texts' indices, the source, the label). The dump is 67 MB
 * (313 MB with PAWS), so it is not kept in the repo: it is derived again by this script, and the
 * `sha256sum` of each file is printed for the record (docs/memory.md, nineteenth pass).
 *
 * SNLI (Stanford NLI, CC BY-SA 4.0) as used here: the public copy in GitHub repo Deltaus/sBiMPM,
 * commit 8f1b040cd1a4b5ef3515a14b2a401906a5b82bbf, `snli_1.0/snli_1.0_dev.jsonl` (1,289 lines,
 * sha256 d28f65fc…f3cf34) and `snli_1.0/snli_1.0_test.jsonl` (1,277 lines, sha256 032b2d57…482e):
 * partial copies of SNLI's dev and test splits (2,527 pairs with a gold label).
 *
 *   pnpm --filter @svc/evals exec node --conditions=@svc/source --import tsx src/memory/pair-reader/attention-dump.ts --snli /tmp/snli_dev.jsonl,/tmp/snli_test.jsonl [--paws PAWS.jsonl] [--out DIR]
 */
import { createHash } from 'node:crypto';
import { mkdirSync, openSync, readFileSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { statementCore } from '@svc/memory';
import { templatedPairs } from './relation-pairs.js';

const { values } = parseArgs({ options: { snli: { type: 'string', default: '' }, paws: { type: 'string', default: '' }, out: { type: 'string', default: '/tmp/attention-dump' } } });
const LABELS: Record<string, number> = { entailment: 0, neutral: 1, contradiction: 2 };

interface DumpPair { a: string; b: string; source: 'snli' | 'paws' | 'tuning'; label: number; attrA?: string; attrB?: string; file?: string; kind?: string }
const snli: DumpPair[] = values.snli.split(',').filter(Boolean).flatMap((path) =>
  readFileSync(path, 'utf8').split('\n').filter(Boolean).flatMap((line) => {
    const row = JSON.parse(line) as { sentence1: string; sentence2: string; gold_label: string };
    const label = LABELS[row.gold_label];
    return label === undefined ? [] : [{ a: row.sentence1, b: row.sentence2, source: 'snli' as const, label }];
  }),
);
// PAWS-Wiki dev (word-order paraphrases, label 1 = paraphrase): another kind of pair for the shared layers.
const paws: DumpPair[] = values.paws === '' ? [] : readFileSync(values.paws, 'utf8').split('\n').filter(Boolean).map((line) => {
  const row = JSON.parse(line) as { a: string; b: string; duplicate: number };
  return { a: row.a, b: row.b, source: 'paws', label: row.duplicate };
});
const tuning: DumpPair[] = templatedPairs().map((p) => ({ a: statementCore(p.a), b: statementCore(p.b), source: 'tuning', label: p.y, attrA: p.attrA, attrB: p.attrB, file: p.file, kind: p.kind }));
const pairs = [...snli, ...paws, ...tuning];
const texts = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
const index = new Map(texts.map((t, i) => [t, i]));

mkdirSync(values.out, { recursive: true });
const encoder = createSentenceEncoder({ cacheSize: 0 });
const fd = openSync(join(values.out, 'states.f32'), 'w');
const meta: string[] = [];
let row = 0;
const started = process.cpuUsage();
for (let i = 0; i < texts.length; i += 32) {
  const batch = texts.slice(i, i + 32);
  for (const [j, e] of (await encoder.embedWithTokens(batch)).entries()) {
    writeSync(fd, new Uint8Array(e.tokens.states.buffer, e.tokens.states.byteOffset, e.tokens.states.byteLength));
    meta.push(JSON.stringify({ text: batch[j], row, n: e.tokens.ids.length }));
    row += e.tokens.ids.length;
  }
}
closeSync(fd);
const used = process.cpuUsage(started);
writeFileSync(join(values.out, 'texts.jsonl'), `${meta.join('\n')}\n`);
writeFileSync(join(values.out, 'pairs.jsonl'), `${pairs.map((p) => JSON.stringify({ ...p, a: index.get(p.a), b: index.get(p.b) })).join('\n')}\n`);
await encoder.close?.();
console.log(`${pairs.length} pairs (${snli.length} SNLI, ${paws.length} PAWS), ${texts.length} texts, ${row} word pieces; ${((used.user + used.system) / 1e6).toFixed(1)} s CPU of the process`);
for (const name of ['states.f32', 'texts.jsonl', 'pairs.jsonl']) console.log(`sha256 ${createHash('sha256').update(readFileSync(join(values.out, name))).digest('hex')}  ${name}`);

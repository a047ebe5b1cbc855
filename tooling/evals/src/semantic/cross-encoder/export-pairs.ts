import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadTokenizer } from '@svc/encoder';
import { keyTerms, mayShareAnswer } from '@svc/semantic';
import { findDataDir, loadParaphrases, loadQqp, type QqpPair } from '../dataset.js';
import { loadNearMisses } from '../near-misses.js';
import { splitByQuestion } from '../split.js';

// Writes what the cross-encoder experiment (README.md here) trains and measures on, as token ids
// of the shared encoder's tokenizer with the near-miss guard's verdict: QQP dev split by question
// (the same split as `semantic`), GPTCache's pairs with the guard's verdict for every
// (paraphrase, stored question) combination, and the near-miss set.
const out = resolve(process.argv[2] ?? '/tmp/svc-cross-encoder');
mkdirSync(out, { recursive: true });
const tokenizer = await loadTokenizer(256);
const dir = findDataDir(process.cwd());
const guard = (a: string, b: string) => (mayShareAnswer(keyTerms(a), keyTerms(b)) ? 1 : 0);
const jsonl = (rows: object[]) => rows.map((row) => JSON.stringify(row)).join('\n');
const qqpRows = (pairs: QqpPair[]) => jsonl(pairs.map((p) => ({ a: p.a, b: p.b, y: p.duplicate ? 1 : 0, ia: tokenizer.encode(p.a), ib: tokenizer.encode(p.b), g: guard(p.a, p.b) })));

const { train, heldOut } = splitByQuestion(loadQqp(dir));
writeFileSync(join(out, 'qqp-train.jsonl'), qqpRows(train));
writeFileSync(join(out, 'qqp-heldout.jsonl'), qqpRows(heldOut));
const paraphrases = loadParaphrases(dir);
writeFileSync(join(out, 'gptcache.jsonl'), jsonl(paraphrases.map((p) => ({ o: p.origin, s: p.similar, io: tokenizer.encode(p.origin), is: tokenizer.encode(p.similar) }))));
const origins = paraphrases.map((p) => keyTerms(p.origin));
writeFileSync(join(out, 'gptcache-guard.txt'), paraphrases.map((p) => origins.map((o) => (mayShareAnswer(keyTerms(p.similar), o) ? '1' : '0')).join('')).join('\n'));
writeFileSync(join(out, 'near.jsonl'), jsonl(loadNearMisses().map((p) => ({ a: p.a, b: p.b, ia: tokenizer.encode(p.a), ib: tokenizer.encode(p.b), g: guard(p.a, p.b) }))));
console.log(`wrote ${train.length} training and ${heldOut.length} held-out QQP pairs, ${paraphrases.length} GPTCache pairs to ${out}`);

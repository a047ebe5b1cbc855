import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadTokenizer } from '@svc/encoder';
import { keyTerms, mayShareAnswer, semanticKeyOf } from '@svc/semantic';
import { chatRequest } from '@svc/semantic/test';
import { findDataDir, loadParaphrases, loadQqp } from '../dataset.js';
import { loadNearMisses } from '../near-misses.js';
import { loadPaws, onePerSource, splitBySource } from '../paws.js';
import { splitByQuestion } from '../split.js';

// Writes what the pair model (README.md here) trains and is measured on, as the shared encoder's
// token ids of exactly the text the cache embeds, with the near-miss guard's verdict: PAWS dev
// split by source sentence, QQP dev split by question, GPTCache's pairs and the near-miss set.
const out = resolve(process.argv[2] ?? '/tmp/svc-pair-model');
mkdirSync(out, { recursive: true });
const tokenizer = await loadTokenizer(256);
const dir = findDataDir(process.cwd());
const asked = (question: string): string => semanticKeyOf(chatRequest(question))?.text ?? question;
const guard = (a: string, b: string) => (mayShareAnswer(keyTerms(a), keyTerms(b)) ? 1 : 0);
const rows = (pairs: readonly { a: string; b: string; duplicate: boolean }[]) =>
  pairs.map((p) => {
    const [a, b] = [asked(p.a), asked(p.b)];
    return JSON.stringify({ a, b, y: p.duplicate ? 1 : 0, ia: tokenizer.encode(a), ib: tokenizer.encode(b), g: guard(a, b) });
  });
const write = (name: string, lines: string[]) => writeFileSync(join(out, name), `${lines.join('\n')}\n`);

const paws = splitBySource(loadPaws(dir));
write('paws-train.jsonl', rows(paws.train));
write('paws-heldout.jsonl', rows(paws.heldOut));
write('paws-heldout-one.jsonl', rows(onePerSource(paws.heldOut)));
const qqp = splitByQuestion(loadQqp(dir));
write('qqp-train.jsonl', rows(qqp.train));
write('qqp-heldout.jsonl', rows(qqp.heldOut));
write('gptcache.jsonl', rows(loadParaphrases(dir).map((p) => ({ a: p.origin, b: p.similar, duplicate: true }))));
write('near.jsonl', rows(loadNearMisses().map((p) => ({ ...p, duplicate: false }))));
console.log(`PAWS ${paws.train.length} training / ${paws.heldOut.length} held-out pairs (${onePerSource(paws.heldOut).length} sources); QQP ${qqp.train.length} / ${qqp.heldOut.length}; to ${out}`);

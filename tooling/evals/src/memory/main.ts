/**
 * Memory recall, measured: calibrates the cue weights and similarity floors of `@svc/memory` for
 * an embedder and reports, on held-out data, the share of unrelated prompts that get anything
 * injected (goal: <= 1%) and the share of related questions that get the right fact (goal: >= 80%);
 * LoCoMo's evidence recall@5 when `--locomo` names its data. Prints tables and a JSON line.
 *
 *   pnpm --filter @svc/evals memory [--data ../shared/data/semcache] [--embedder minilm|minilm-fp32|hashed] [--locomo DIR]
 */
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { attributeThresholds, RECALL_CUE_WEIGHTS, recallFloors } from '@svc/memory';
import { createHashedEmbedder, type Embedder } from '@svc/semantic';
import { calibrateFloors, chooseWeights } from './calibrate.js';
import { loadFacts, loadUnrelated, usersOf } from './dataset.js';
import { evaluateLocomo } from './locomo.js';
import { falseInjection, NO_CUES, probeRelated, probeUnrelated, relatedHit, shippedRecall, storeUsers } from './recall-eval.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '../../../shared/data/semcache' },
    embedder: { type: 'string', default: 'minilm' },
    locomo: { type: 'string' },
    users: { type: 'string', default: '6' },
    'max-false-injection': { type: 'string', default: '0.005' },
    /** Overrides the attribute classifier's question threshold (calibration). */
    'question-threshold': { type: 'string' },
  },
});

const embedder: Embedder & { close?: () => Promise<void> } = values.embedder === 'hashed' ? createHashedEmbedder() : createSentenceEncoder({ cacheSize: 0, weights: values.embedder === 'minilm-fp32' ? 'fp32' : 'int8' });
const users = usersOf(loadFacts(), Number(values.users));
const unrelated = loadUnrelated(values.data);
const questionThreshold = values['question-threshold'] === undefined ? undefined : Number(values['question-threshold']);
const calibrated = attributeThresholds(embedder.id);
const memory = await storeUsers(embedder, users, questionThreshold === undefined || !calibrated ? {} : { attributeThresholds: { ...calibrated, question: questionThreshold } });
const related = await probeRelated(memory, users);
// Templates alternate between calibration and the held-out report.
const dev = { related: related.filter((p) => p.template % 2 === 0), unrelated: await probeUnrelated(memory, users.length, unrelated.dev) };
const test = { related: related.filter((p) => p.template % 2 === 1), unrelated: await probeUnrelated(memory, users.length, unrelated.test) };
const ceiling = Number(values['max-false-injection']);
const percent = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(8);
const row = (label: string, floors: { self: number; other: number }, weights = NO_CUES) =>
  `${label.padEnd(44)}${[falseInjection(dev.unrelated, floors, weights), falseInjection(test.unrelated, floors, weights), relatedHit(dev.related, floors, weights), relatedHit(test.related, floors, weights)].map(percent).join('  ')}`;
const header = `${''.padEnd(44)}  FI dev   FI test  hit dev  hit test`;

console.log(`memory recall: ${embedder.id}, ${users.length} users x ${users[0]!.length} facts; ${dev.unrelated.length} + ${test.unrelated.length} unrelated prompts, ${dev.related.length} + ${test.related.length} related questions (dev + held out)`);
console.log(`one floor for every prompt, similarity alone\n${header}`);
for (const t of [0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7]) console.log(row(`${t.toFixed(2)}`, { self: t, other: t }));
console.log(`one floor for every prompt, with the shipped cue weights (word ${RECALL_CUE_WEIGHTS.wordHit}, slot ${RECALL_CUE_WEIGHTS.slotHit})\n${header}`);
for (const t of [0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7]) console.log(row(`${t.toFixed(2)}`, { self: t, other: t }, RECALL_CUE_WEIGHTS));

console.log(`cue weights, each with floors calibrated on dev (FI <= ${ceiling * 100}%)\n${header}`);
const choice = chooseWeights(dev, ceiling, (weights, floors) => console.log(row(`word ${weights.wordHit} slot ${weights.slotHit}: self ${floors.self} other ${floors.other}`, floors, weights)));
const cosineFloors = calibrateFloors(dev.unrelated, ceiling, NO_CUES);
const floorsForShipped = calibrateFloors(dev.unrelated, ceiling, RECALL_CUE_WEIGHTS);
console.log(`chosen on dev: word ${choice.weights.wordHit}, slot ${choice.weights.slotHit}, floors self ${choice.floors.self} / other ${choice.floors.other}; floors for the shipped weights: self ${floorsForShipped.self} / other ${floorsForShipped.other}`);

const shippedFloors = recallFloors(embedder.id);
const shipped = await shippedRecall(memory, users.length, unrelated.test, test.related);
const shippedDev = await shippedRecall(memory, users.length, unrelated.dev, dev.related);
console.log(header);
console.log(row('similarity alone, calibrated floors', cosineFloors));
console.log(row(`shipped (floors ${shippedFloors.self} / ${shippedFloors.other}, cues)`, shippedFloors, RECALL_CUE_WEIGHTS));
console.log(`through the store's recall with its defaults (question cues of the attribute classifier included): dev false injection ${percent(shippedDev.falseInjection)}, related hit ${percent(shippedDev.relatedHit)}; held out: false injection ${percent(shipped.falseInjection)}, related hit ${percent(shipped.relatedHit)}`);
const result: Record<string, unknown> = {
  embedder: embedder.id,
  chosen: choice,
  floorsForShippedWeights: floorsForShipped,
  shipped: { weights: RECALL_CUE_WEIGHTS, floors: shippedFloors, falseInjectionDev: shippedDev.falseInjection, relatedHitDev: shippedDev.relatedHit, falseInjectionTest: shipped.falseInjection, relatedHitTest: shipped.relatedHit },
  unrelatedTest: test.unrelated.length,
  relatedTest: test.related.length,
  similarityAlone: { floors: cosineFloors, falseInjectionTest: falseInjection(test.unrelated, cosineFloors), relatedHitTest: relatedHit(test.related, cosineFloors) },
  naiveBaseline: { floor: 0.2, falseInjectionTest: falseInjection(test.unrelated, { self: 0.2, other: 0.2 }), relatedHitTest: relatedHit(test.related, { self: 0.2, other: 0.2 }) },
};
if (values.locomo) result.locomo = await evaluateLocomo(embedder, values.locomo, shippedFloors);
console.log(JSON.stringify(result));
await embedder.close?.();

/**
 * Memory recall, measured: calibrates the similarity floor of `@svc/memory` for an embedder and
 * reports, on held-out data, the share of unrelated prompts that get anything injected (goal:
 * <= 1%) and the share of related questions that get the right fact (goal: >= 80%); LoCoMo's
 * evidence recall@5 when `--locomo` names its data. Prints a table and a JSON line.
 *
 *   pnpm --filter @svc/evals memory [--data ../shared/data/semcache] [--embedder minilm|hashed] [--locomo DIR]
 */
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { createHashedEmbedder, type Embedder } from '@svc/semantic';
import { loadFacts, loadUnrelated, usersOf } from './dataset.js';
import { evaluateLocomo } from './locomo.js';
import { falseInjection, probeRelated, probeUnrelated, relatedHit, storeUsers } from './recall-eval.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '../../../shared/data/semcache' },
    embedder: { type: 'string', default: 'minilm' },
    locomo: { type: 'string' },
    users: { type: 'string', default: '6' },
    'max-false-injection': { type: 'string', default: '0.005' },
  },
});

const embedder: Embedder & { close?: () => Promise<void> } = values.embedder === 'hashed' ? createHashedEmbedder() : createSentenceEncoder({ cacheSize: 0 });
const facts = loadFacts();
const users = usersOf(facts, Number(values.users));
const unrelated = loadUnrelated(values.data);
const memory = await storeUsers(embedder, users);
const related = await probeRelated(memory, users);
// Templates alternate between calibration and the held-out report.
const relatedDev = related.filter((p) => p.template % 2 === 0);
const relatedTest = related.filter((p) => p.template % 2 === 1);
const unrelatedDev = await probeUnrelated(memory, users.length, unrelated.dev);
const unrelatedTest = await probeUnrelated(memory, users.length, unrelated.test);

const grid = Array.from({ length: 61 }, (_, i) => Math.round((0.2 + i * 0.01) * 100) / 100);
const ceiling = Number(values['max-false-injection']);
// Prompts that do not refer to their user first: the lowest floor at which they alone stay under
// half the budget; then the floor of self-referring prompts, the lowest that keeps the whole under it.
const others = unrelatedDev.filter((p) => !p.self);
const other = grid.find((t) => falseInjection(others, { self: 1, other: t }) * (others.length / unrelatedDev.length) <= ceiling / 2) ?? 1;
const self = grid.find((t) => falseInjection(unrelatedDev, { self: t, other }) <= ceiling) ?? 1;
const floors = { self, other };
const percent = (x: number) => `${(x * 100).toFixed(1)}%`.padStart(10);

console.log(`memory recall: ${embedder.id}, ${users.length} users x ${users[0]!.length} facts; unrelated prompts referring to their user: dev ${percent(unrelatedDev.filter((p) => p.self).length / unrelatedDev.length)}, test ${percent(unrelatedTest.filter((p) => p.self).length / unrelatedTest.length)}`);
console.log('one floor  false-injection(dev)  false-injection(test)  related-hit(dev)  related-hit(test)');
for (const t of grid.filter((t) => Math.round(t * 100) % 5 === 0)) {
  const one = { self: t, other: t };
  console.log(`${t.toFixed(2)}      ${[falseInjection(unrelatedDev, one), falseInjection(unrelatedTest, one), relatedHit(relatedDev, one), relatedHit(relatedTest, one)].map(percent).join('             ')}`);
}
console.log(`calibrated floors (self ${self}, other ${other}): false injection dev ${percent(falseInjection(unrelatedDev, floors))}, test ${percent(falseInjection(unrelatedTest, floors))}; related hit dev ${percent(relatedHit(relatedDev, floors))}, test ${percent(relatedHit(relatedTest, floors))}`);
const result: Record<string, unknown> = {
  embedder: embedder.id,
  floors,
  falseInjectionTest: falseInjection(unrelatedTest, floors),
  unrelatedTest: unrelatedTest.length,
  relatedHitTest: relatedHit(relatedTest, floors),
  relatedTest: relatedTest.length,
  naiveBaseline: { floor: 0.2, falseInjectionTest: falseInjection(unrelatedTest, { self: 0.2, other: 0.2 }), relatedHitTest: relatedHit(relatedTest, { self: 0.2, other: 0.2 }) },
};
if (values.locomo) result.locomo = await evaluateLocomo(embedder, values.locomo, floors);
console.log(JSON.stringify(result));
await embedder.close?.();

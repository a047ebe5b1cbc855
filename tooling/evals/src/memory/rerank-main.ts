/**
 * Fits a recall re-ranker over the features `recall` reports (`packages/memory/src/recall-features.ts`) on dev data only: the
 * tuning forms of the dev attributes of `updates.jsonl` and of every attribute of
 * `updates-tuning.jsonl`, the questions of the calibration (even) templates of `facts.jsonl`
 * stated as background, and the dev unrelated prompts (QQP lines 0-999). Prints, per
 * false-injection budget on the dev unrelated prompts, the share of dev questions given their
 * fact by the floors alone, by the floors or the scorer (`union`), and by the scorer alone.
 *
 *   pnpm --filter @svc/evals memory:rerank [--data ../shared/data/semcache] [--budget 0.005] [--cache /tmp/rerank.json]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createSentenceEncoder } from '@svc/encoder';
import { RERANK_FEATURES } from '@svc/memory';
import { loadFacts, loadUnrelated } from './dataset.js';
import { type RerankRequestRows, rerankRequests } from './rerank-data.js';
import { admitted, chooseThreshold, fitLogistic } from './rerank-fit.js';
import { loadAttributeQuestions, loadUpdateAttributes, updateUsers } from './updates-data.js';
import { replayUsers } from './updates-eval.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '../../../shared/data/semcache' },
    budget: { type: 'string', default: '0.01' },
    users: { type: 'string', default: '48' },
    // Keeps the candidates' features between runs (the replays take minutes).
    cache: { type: 'string' },
  },
});

async function collect(): Promise<RerankRequestRows[]> {
  const embedder = createSentenceEncoder({ cacheSize: 0 });
  const facts = loadFacts();
  const unrelated = loadUnrelated(values.data).dev;
  const out: RerankRequestRows[] = [];
  for (const [attributes, questions] of [
    ['updates.jsonl', 'update-questions.jsonl'],
    ['updates-tuning.jsonl', 'update-questions-tuning.jsonl'],
  ] as const) {
    const users = updateUsers(facts, loadUpdateAttributes(attributes), { count: Number(values.users), perUser: 6 });
    const run = await replayUsers(embedder, users, true);
    // Each replay's users ask half of the unrelated prompts, so none is counted twice.
    const half = attributes === 'updates.jsonl' ? unrelated.slice(0, 500) : unrelated.slice(500);
    out.push(...(await rerankRequests(run, { questions: loadAttributeQuestions(questions), facts, unrelated: half })));
  }
  await embedder.close?.();
  return out;
}

const requests: RerankRequestRows[] = values.cache && existsSync(values.cache) ? JSON.parse(readFileSync(values.cache, 'utf8')) : await collect();
if (values.cache && !existsSync(values.cache)) writeFileSync(values.cache, JSON.stringify(requests));
const count = (kind: RerankRequestRows['kind']) => requests.filter((r) => r.kind === kind).length;
console.log(`dev requests: ${count('related')} related, ${count('unrelated')} unrelated, ${count('none')} retracted; ${requests.reduce((s, r) => s + r.rows.length, 0)} candidates`);
const fit = fitLogistic(requests);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const floorsAlone = admitted(requests, fit, Number.POSITIVE_INFINITY);
console.log(`floors alone: false injection ${pct(floorsAlone.falseInjection)}, related ${pct(floorsAlone.related)}`);
for (const budget of [0.005, 0.01, 0.02, 0.04]) {
  for (const union of [true, false]) {
    const model = chooseThreshold(requests, fit, budget, union);
    const at = admitted(requests, model, model.threshold, union);
    console.log(`budget ${pct(budget)}, ${union ? 'floors or scorer' : 'scorer alone'}: threshold ${model.threshold}: false injection ${pct(at.falseInjection)}, related ${pct(at.related)}`);
  }
}
const chosen = chooseThreshold(requests, fit, Number(values.budget));
console.log(RERANK_FEATURES.map((name, j) => `${name}: ${chosen.weights[j]}`).join(', '));
console.log(JSON.stringify(chosen));

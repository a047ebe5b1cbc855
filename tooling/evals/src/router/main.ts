/**
 * Routing quality, measured through `@svc/router`'s public API. Three ways of holding data out:
 * - `--by source` (default; what the acceptance measures): leave one source out, train the quality
 *   model on the other sources, rank every prompt of the held-out source;
 * - `--by group`: subject folds (MMLU-Pro categories, RouteLLM's MMLU subjects mapped onto them,
 *   LLMRouter's tasks), so a dev prompt's subject is never trained on in any source;
 * - `--by prompt`: every fifth prompt of each source held out (in-domain: the source's other
 *   prompts are trained on).
 * Each dev prompt is ranked by `router.winRate(prompt, strong, weak)`; reported: APGR, CPT(50%),
 * CPT(80%) and the cost saving at 95% of the strong model's quality, next to random, always-weak
 * and always-strong.
 *
 * With `--trust`, the do-no-harm rule per task family and every pair ranked again with the prior
 * where the rule does not trust the ranking (`--write-trust` rewrites the shipped table); with
 * `--domain` also with the prompts unlike the fold's training prompts read as the prior.
 *
 *   pnpm --filter @svc/evals router [--by source|group|prompt] [--folds 0,1] [--steps 250] [--l2 1e-3] [--group-effects] [--balance] [--only a,b] [--train-sources a,b] [--no-alternatives] [--write] [--trust [--write-trust] [--domain]]
 *   (run router:prepare first: it embeds the prompts once)
 */
import { parseArgs } from 'node:util';
import { alternatives } from './alternatives.js';
import { evaluatePair, lookupEmbedder, type PairResult } from './api-eval.js';
import type { Item } from './data.js';
import { trainDomain } from './domain.js';
import { closeEncoder } from './embed.js';
import { type Fold, folds, groupFold, promptFold, sourceFold, split } from './folds.js';
import { pairs, priorPool } from './pairs.js';
import { type FoldReport, printReport, writeDocs } from './report.js';
import { loadSources } from './sources.js';
import { type TrainSettings, toExamples, trainQualityModel } from './train.js';
import { type HeldOutPair, trustReport } from './trust-run.js';
import { writeShippedTrust } from './trust.js';

const { values } = parseArgs({
  options: {
    by: { type: 'string', default: 'source' },
    folds: { type: 'string' },
    steps: { type: 'string', default: '250' },
    l2: { type: 'string' },
    'group-effects': { type: 'boolean', default: false },
    balance: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    alternatives: { type: 'boolean', default: true },
    mmlu: { type: 'string' },
    'mmlu-pro': { type: 'string' },
    llmrouter: { type: 'string' },
    only: { type: 'string' },
    'train-sources': { type: 'string' },
    trust: { type: 'boolean', default: false },
    'write-trust': { type: 'boolean', default: false },
    domain: { type: 'boolean', default: false },
  },
  allowNegative: true,
});
const settings: TrainSettings = { steps: Number(values.steps), groupEffects: values['group-effects'], balanceSources: values.balance, ...(values.l2 ? { l2: Number(values.l2) } : {}) };
const sources = await loadSources({ mmlu: values.mmlu, mmluPro: values['mmlu-pro'], llmRouter: values.llmrouter, embed: true, only: values.only?.split(',') });
await closeEncoder();
const items = sources.flatMap((s) => s.items);
const vectors = sources.flatMap((s) => s.vectors);
const embedder = lookupEmbedder(items, vectors);
const byFold = { group: groupFold, prompt: promptFold } as const;
const foldOf = values.by === 'group' || values.by === 'prompt' ? byFold[values.by] : undefined;
const allFolds: Fold[] = foldOf ? Array.from({ length: folds }, (_, f) => foldOf(items, f)) : sources.map((s) => sourceFold(s.name));
const chosen = values.folds === undefined ? allFolds : values.folds.split(',').map((f) => allFolds[Number(f)]!);
const trainSources = values['train-sources'] ? new Set(values['train-sources'].split(',')) : undefined;

async function runFold(fold: Fold): Promise<FoldReport> {
  const started = performance.now();
  const { train, trainVectors, dev, devVectors } = split(items, vectors, fold, trainSources);
  const index = new Map<string, number>();
  const examples = toExamples(train, trainVectors, index);
  const quality = trainQualityModel(examples, index, fold.name, settings);
  const results: FoldReport['results'] = [];
  // The training prompts' region (prototypes of this fold's training vectors only), for --trust's third column.
  const domain = values.domain ? trainDomain(trainVectors) : undefined;
  for (const pair of pairs) {
    const own: Item[] = priorPool(pair, train, dev);
    const devOfPair = dev.filter((i) => i.source === pair.source);
    const result: PairResult | undefined = await evaluatePair(pair, { quality, priors: own, dev: devOfPair, embedder });
    if (!result) continue;
    held.push({ fold: fold.name, pair, quality, priors: own, dev: devOfPair, domain });
    // Per task (subject group) too: the acceptance scores each held-out data set on its own.
    const perTask: { task: string; result: PairResult }[] = [];
    for (const task of [...new Set(devOfPair.map((i) => i.group))].sort()) {
      const r = await evaluatePair(pair, { quality, priors: own, dev: devOfPair.filter((i) => i.group === task), embedder });
      if (r) perTask.push({ task, result: r });
    }
    results.push({ pair: `${pair.strong} / ${pair.weak}`, source: pair.source, result, perTask });
  }
  const alt = values.alternatives ? alternatives({ train, trainVectors, examples, index, dev, devVectors, settings, model: quality }) : [];
  console.error(`${fold.name} done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { name: fold.name, train: train.length, results, alternatives: alt, seconds: (performance.now() - started) / 1000 };
}

const held: HeldOutPair[] = [];
const reports: FoldReport[] = [];
for (const fold of chosen) reports.push(await runFold(fold));
const text = printReport(reports);
console.log(text);
if (values.write) writeDocs(text);
if (values.trust) {
  // Do no harm (docs/routing.md): per task family, is the held-out ranking measurably above random?
  const trust = await trustReport(held, embedder);
  console.log(`\n${trust.text}`);
  if (values['write-trust']) writeShippedTrust(trust.rows);
}

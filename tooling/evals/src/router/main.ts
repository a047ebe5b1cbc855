/**
 * Routing quality, measured through `@svc/router`'s public API: for every subject fold (MMLU-Pro
 * categories; RouteLLM's MMLU subjects mapped onto them, so held-out subjects are unseen in both
 * sources) trains the quality model on the other folds, then ranks each dev prompt by
 * `router.winRate(prompt, strong, weak)` and reports APGR, CPT(50%), CPT(80%) and the cost saving
 * at 95% of the strong model's quality, next to random, always-weak and always-strong.
 *
 *   pnpm --filter @svc/evals router [--folds 0,1] [--steps 250] [--only routellm-mmlu] [--train-sources routellm-mmlu] [--no-alternatives] [--write]
 *   (run router:prepare first: it embeds the prompts once)
 */
import { parseArgs } from 'node:util';
import { closeEncoder } from './embed.js';
import { type AlternativeResult, alternatives } from './alternatives.js';
import { evaluatePair, lookupEmbedder, type PairResult } from './api-eval.js';
import { foldGroups, folds, split } from './folds.js';
import { pairs } from './pairs.js';
import { type FoldReport, printReport, writeDocs } from './report.js';
import { loadSources } from './sources.js';
import { toExamples, trainQualityModel } from './train.js';

const { values } = parseArgs({
  options: {
    folds: { type: 'string' },
    steps: { type: 'string', default: '250' },
    write: { type: 'boolean', default: false },
    alternatives: { type: 'boolean', default: true },
    mmlu: { type: 'string' },
    'mmlu-pro': { type: 'string' },
    only: { type: 'string' },
    'train-sources': { type: 'string' },
  },
  allowNegative: true,
});
const steps = Number(values.steps);
const chosen = values.folds === undefined ? Array.from({ length: folds }, (_, f) => f) : values.folds.split(',').map(Number);
const sources = await loadSources({ mmlu: values.mmlu, mmluPro: values['mmlu-pro'], embed: true, only: values.only?.split(',') });
await closeEncoder();
const items = sources.flatMap((s) => s.items);
const vectors = sources.flatMap((s) => s.vectors);
const embedder = lookupEmbedder(items, vectors);

const reports: FoldReport[] = [];
for (const f of chosen) {
  const heldOut = foldGroups(items, f);
  const started = performance.now();
  const trainSources = values['train-sources'] ? new Set(values['train-sources'].split(',')) : undefined;
  const { train: trained, trainVectors, dev } = split(items, vectors, heldOut, trainSources);
  // Priors come from every source's training folds (what an operator knows of each model), even when the item model is trained on fewer.
  const { train } = split(items, vectors, heldOut);
  const index = new Map<string, number>();
  const examples = toExamples(trained, trainVectors, index);
  const quality = trainQualityModel(examples, index, `fold ${f}`, { steps });
  const results: { pair: string; source: string; result: PairResult }[] = [];
  for (const pair of pairs) {
    const result = await evaluatePair(pair, { quality, train, dev: dev.filter((i) => i.source === pair.source), embedder });
    if (result) results.push({ pair: `${pair.strong} / ${pair.weak}`, source: pair.source, result });
  }
  // Split by source too: RouteLLM's MMLU with a model trained on MMLU-Pro alone.
  const cross = split(items, vectors, heldOut, new Set(['mmlu-pro']));
  if (cross.train.length > 0) {
    const crossIndex = new Map<string, number>();
    const crossQuality = trainQualityModel(toExamples(cross.train, cross.trainVectors, crossIndex), crossIndex, `fold ${f}, mmlu-pro only`, { steps });
    const crossResult = await evaluatePair(pairs[0]!, { quality: crossQuality, train, dev: dev.filter((i) => i.source === pairs[0]!.source), embedder });
    if (crossResult) results.push({ pair: `${pairs[0]!.strong} / ${pairs[0]!.weak}, trained on MMLU-Pro only`, source: 'routellm-mmlu', result: crossResult });
  }
  const { devVectors } = split(items, vectors, heldOut);
  const alt: AlternativeResult[] = values.alternatives ? alternatives({ train: trained, trainVectors, examples, index, dev, devVectors, steps, model: quality }) : [];
  reports.push({ fold: f, heldOut: [...heldOut], train: train.length, results, alternatives: alt, seconds: (performance.now() - started) / 1000 });
  console.error(`fold ${f} done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
const text = printReport(reports);
console.log(text);
if (values.write) writeDocs(text);

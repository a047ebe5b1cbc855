/**
 * The out-of-distribution threshold chosen on a validation split of the training sources only
 * (`domain-select.ts`), measured by leave one source out: for each held-out source, the threshold
 * is chosen by leaving each of the other three out in turn, then the held-out source's pairs are
 * ranked with it (and, beside it, with no distance check and with the shipped rule's threshold,
 * the one keeping 98% of training prompts out of fold). `--write` chooses it over all four sources
 * and writes it into the shipped model (prototypes and weights unchanged).
 *
 *   pnpm --filter @svc/evals router:domain-select [--folds 0,1] [--write]   (run router:prepare first)
 */
import { parseArgs } from 'node:util';
import { shippedQualityModel, shippedQualityTrust } from '@svc/router';
import { lookupEmbedder } from './api-eval.js';
import type { Item } from './data.js';
import { chooseThreshold, type Fitted, marginsAt, thresholdCandidates, validate, type ValidationSet } from './domain-select.js';
import { defaultDomainSettings, fitPrototypes, keepingThreshold, keptAt, outOfFoldSimilarities } from './domain.js';
import { closeEncoder } from './embed.js';
import { writeShippedModel } from './shipped-file.js';
import { loadSources } from './sources.js';
import { toExamples, trainQualityModel } from './train.js';

const { values } = parseArgs({ options: { folds: { type: 'string' }, write: { type: 'boolean', default: false } } });
const sources = await loadSources({ embed: true });
await closeEncoder();
const items = sources.flatMap((s) => s.items);
const vectors = sources.flatMap((s) => s.vectors);
const embedder = lookupEmbedder(items, vectors);
const trust = shippedQualityTrust;
const names = sources.map((s) => s.name);
const cache = new Map<string, Fitted>();
/** The quality model (as shipped: 250 steps, group effects) and prototypes fitted on `on`, once per set of sources. */
const fitted = (on: readonly string[]): Fitted => {
  const key = [...on].sort().join(',');
  let f = cache.get(key);
  if (!f) {
    const started = performance.now();
    const train: Item[] = [];
    const trainVectors: Float32Array[] = [];
    items.forEach((item, i) => {
      if (on.includes(item.source)) {
        train.push(item);
        trainVectors.push(vectors[i]!);
      }
    });
    const index = new Map<string, number>();
    const quality = trainQualityModel(toExamples(train, trainVectors, index), index, key, { steps: 250, groupEffects: true });
    f = { quality, domain: fitPrototypes(trainVectors, defaultDomainSettings), train };
    cache.set(key, f);
    console.error(`  fitted on ${key} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  return f;
};
const vectorsOf = (on: readonly string[]) => vectors.filter((_, i) => on.includes(items[i]!.source));
const f3 = (x: number) => (x >= 0 ? '+' : '') + x.toFixed(3);
const describe = (sets: readonly ValidationSet[], c: number) => sets.map((s) => `${s.name} ${f3(s.margins[c]!)}`).join('; ');

const rows: { name: string; none: number; shipped: number; chosen: number; threshold: number }[] = [];
const outer = values.folds === undefined ? names : values.folds.split(',').map((f) => names[Number(f)]!);
for (const held of outer) {
  const started = performance.now();
  const trainSources = names.filter((n) => n !== held);
  const validation = await validate({ items, sources: trainSources, fitted, trust, embedder });
  const c = chooseThreshold(validation);
  const threshold = thresholdCandidates[c]!;
  console.error(`held-out ${held}: validation on ${trainSources.join(', ')} chose ${threshold} (${describe(validation, c)})`);
  const shippedRule = keepingThreshold(outOfFoldSimilarities(vectorsOf(trainSources)), defaultDomainSettings.keep);
  const dev = items.filter((i) => i.source === held);
  const sets = await marginsAt({ ...fitted(trainSources), dev, candidates: [0, shippedRule, threshold], trust, embedder });
  for (const s of sets) rows.push({ name: s.name, none: s.margins[0]!, shipped: s.margins[1]!, chosen: s.margins[2]!, threshold });
  console.error(`  shipped rule's threshold ${shippedRule.toFixed(4)}; ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

const lines = ['| held-out source, pair | no distance check | shipped rule (keeps 98% out of fold) | threshold chosen on the other sources | chosen |', '|---|---|---|---|---|'];
for (const r of rows) lines.push(`| ${r.name} | ${f3(r.none)} | ${f3(r.shipped)} | **${f3(r.chosen)}** | ${r.threshold} |`);
const summary = (pick: (r: (typeof rows)[number]) => number) => `${f3(rows.reduce((s, r) => s + pick(r), 0) / rows.length)} (worst ${f3(Math.min(...rows.map(pick)))})`;
console.log(`${lines.join('\n')}\n\nMean margin over random: no distance check ${summary((r) => r.none)}; shipped rule ${summary((r) => r.shipped)}; chosen on the training sources ${summary((r) => r.chosen)}.`);

if (values.write) {
  const all = await validate({ items, sources: names, fitted, trust, embedder });
  const minSimilarity = thresholdCandidates[chooseThreshold(all)]!;
  const model = shippedQualityModel();
  const kept = keptAt(outOfFoldSimilarities(vectors), minSimilarity);
  console.log(`\nOver all four sources: chose ${minSimilarity} (${describe(all, chooseThreshold(all))}); keeps ${(100 * kept).toFixed(1)}% of training prompts out of fold.`);
  const domain = minSimilarity > 0 && model.domain ? { ...model.domain, minSimilarity, kept } : undefined;
  console.log(`wrote ${writeShippedModel({ ...model, domain })}`);
}

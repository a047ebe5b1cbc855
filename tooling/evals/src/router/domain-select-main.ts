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
import { chooseThreshold, type Fitted, marginsAt, maxNoise, thresholdCandidates, validate, type ValidationSet } from './domain-select.js';
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

/** The candidates' mean margins over the sets the choice reads, for the log. */
const means = (sets: readonly ValidationSet[]) =>
  thresholdCandidates.map((t, c) => `${t}: ${f3(sets.filter((s) => s.noise <= maxNoise).reduce((sum, s) => sum + s.margins[c]!, 0) / Math.max(1, sets.filter((s) => s.noise <= maxNoise).length))}`).join(', ');
/** The choice among every candidate, and among those that keep a distance check (threshold above 0: the issue asks for one). */
const choices = (sets: readonly ValidationSet[]) => {
  const any = chooseThreshold(sets);
  const checked = 1 + chooseThreshold(sets.map((s) => ({ ...s, margins: s.margins.slice(1) })));
  return { any: thresholdCandidates[any]!, checked: thresholdCandidates[checked]! };
};

const rows: { name: string; none: number; shipped: number; any: number; checked: number; choice: string }[] = [];
const outer = values.folds === undefined ? names : values.folds.split(',').map((f) => names[Number(f)]!);
for (const held of outer) {
  const started = performance.now();
  const trainSources = names.filter((n) => n !== held);
  const validation = await validate({ items, sources: trainSources, fitted, trust, embedder });
  const chosen = choices(validation);
  console.error(`held-out ${held}: validation on ${trainSources.join(', ')}: mean margin by threshold ${means(validation)}; chose ${chosen.any}, with a check ${chosen.checked}`);
  for (const s of validation) console.error(`  ${s.name} (random sd ${s.noise.toFixed(3)}): ${s.margins.map(f3).join(' ')}`);
  const shippedRule = keepingThreshold(outOfFoldSimilarities(vectorsOf(trainSources)), defaultDomainSettings.keep);
  const dev = items.filter((i) => i.source === held);
  const sets = await marginsAt({ ...fitted(trainSources), dev, candidates: [0, shippedRule, chosen.any, chosen.checked], trust, embedder });
  for (const s of sets) rows.push({ name: s.name, none: s.margins[0]!, shipped: s.margins[1]!, any: s.margins[2]!, checked: s.margins[3]!, choice: `${chosen.any} / ${chosen.checked}` });
  console.error(`  shipped rule's threshold ${shippedRule.toFixed(4)}; ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

const lines = [
  '| held-out source, pair | no distance check | shipped rule (keeps 98% out of fold) | chosen on the other sources | chosen, a check kept | thresholds chosen |',
  '|---|---|---|---|---|---|',
];
for (const r of rows) lines.push(`| ${r.name} | ${f3(r.none)} | ${f3(r.shipped)} | ${f3(r.any)} | **${f3(r.checked)}** | ${r.choice} |`);
const summary = (pick: (r: (typeof rows)[number]) => number) => `${f3(rows.reduce((s, r) => s + pick(r), 0) / rows.length)} (worst ${f3(Math.min(...rows.map(pick)))})`;
console.log(
  `${lines.join('\n')}\n\nMean margin over random: no distance check ${summary((r) => r.none)}; shipped rule ${summary((r) => r.shipped)}; chosen ${summary((r) => r.any)}; chosen with a check ${summary((r) => r.checked)}.`,
);

if (values.write) {
  const all = await validate({ items, sources: names, fitted, trust, embedder });
  const { any, checked } = choices(all);
  const model = shippedQualityModel();
  const kept = keptAt(outOfFoldSimilarities(vectors), checked);
  console.log(`\nOver all four sources: mean margin by threshold ${means(all)}; chose ${any}, with a check ${checked} (keeps ${(100 * kept).toFixed(1)}% of training prompts out of fold).`);
  if (model.domain) console.log(`wrote ${writeShippedModel({ ...model, domain: { ...model.domain, minSimilarity: checked, kept } })}`);
}

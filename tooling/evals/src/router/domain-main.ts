/**
 * The out-of-distribution check of the quality model (docs/routing.md, "Prompts unlike the training
 * data"): prototypes of every training prompt with the threshold set out of fold (`trainDomain`),
 * then the share of prompts each set keeps: each training source when the prototypes were fitted
 * without it (leave one source out), and prompts of sources never trained on (Quora questions,
 * Wikipedia sentences, GPTCache's questions, the classifier's hand-written prompts). `--write` adds
 * the domain to the shipped model file (its weights unchanged).
 *
 *   pnpm --filter @svc/evals router:domain [--write]   (run router:prepare first)
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cachedEmbedMany } from '@svc/encoder';
import { type TrainingDomain, inTrainingDomain, shippedQualityModel } from '@svc/router';
import { cacheDir } from './data.js';
import { defaultDomainSettings, trainDomain } from './domain.js';
import { closeEncoder, sharedEncoder } from './embed.js';
import { writeShippedModel } from './shipped-file.js';
import { loadSources } from './sources.js';

const { values } = parseArgs({ options: { write: { type: 'boolean', default: false }, 'per-set': { type: 'string', default: '500' } } });
const perSet = Number(values['per-set']);
const root = resolve(process.cwd(), '../..');
const shared = resolve(root, '../shared/data/semcache');

const jsonl = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { a: string });
const distinct = (texts: readonly string[]) => [...new Set(texts)].slice(0, perSet);
const fixtures = (name: string) => (JSON.parse(readFileSync(join(root, 'packages/router/src/__fixtures__', name), 'utf8')) as { prompt: string }[]).map((p) => p.prompt);

/** Sources never trained on (none reserved: QQP's dev half, PAWS's dev split, GPTCache's pairs, the classifier fixtures). */
const unseen: Record<string, () => string[]> = {
  'Quora questions (qqp-dev)': () => distinct(jsonl(join(shared, 'qqp-dev.jsonl')).map((p) => p.a)),
  'Wikipedia sentences (paws-dev)': () => distinct(jsonl(join(shared, 'paws-dev.jsonl')).map((p) => p.a)),
  "GPTCache's questions": () => distinct((JSON.parse(readFileSync(join(shared, 'gptcache-paraphrase-pairs.json'), 'utf8')) as { origin: string }[]).map((p) => p.origin)),
  "the classifier's hand-written prompts (chat, code, translation, ...)": () => [...fixtures('labelled.json'), ...fixtures('held-out.json')],
};

const sources = await loadSources({ embed: true });
const keptShare = (domain: TrainingDomain, vectors: readonly Float32Array[]) => vectors.filter((v) => inTrainingDomain(domain, v)).length / vectors.length;
/** Mean µs of one check over `vectors` (five passes; the request path pays it once per trusted-family decision with an embedding). */
const microseconds = (domain: TrainingDomain, vectors: readonly Float32Array[]) => {
  let kept = 0;
  const started = performance.now();
  for (let pass = 0; pass < 5; pass++) for (const v of vectors) kept += Number(inTrainingDomain(domain, v));
  return { us: ((performance.now() - started) * 1000) / (5 * vectors.length), kept };
};
const timings: string[] = [];
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const lines = ['| prompts | trained on | kept (read by the model) | sent to the prior |', '|---|---|---|---|'];

for (const held of sources) {
  const domain = trainDomain(sources.filter((s) => s !== held).flatMap((s) => s.vectors));
  const kept = keptShare(domain, held.vectors);
  lines.push(`| ${held.name} (${held.vectors.length}), prototypes without it | the other three sources (out of fold ${pct(domain.kept)}) | ${pct(kept)} | ${pct(1 - kept)} |`);
}
const domain = trainDomain(sources.flatMap((s) => s.vectors));
timings.push(`training prompts (mostly kept early): ${microseconds(domain, sources.flatMap((s) => s.vectors)).us.toFixed(1)} µs`);
lines.push(`| training prompts out of fold (${sources.reduce((n, s) => n + s.vectors.length, 0)}) | all four sources | ${pct(domain.kept)} | ${pct(1 - domain.kept)} |`);
for (const [name, load] of Object.entries(unseen)) {
  const texts = load();
  const vectors = await cachedEmbedMany(join(cacheDir, `unseen-${name.replace(/[^a-z]+/gi, '-')}.vec`), sharedEncoder(), texts);
  const kept = keptShare(domain, vectors);
  timings.push(`${name}: ${microseconds(domain, vectors).us.toFixed(1)} µs`);
  lines.push(`| ${name} (${texts.length}) | never | ${pct(kept)} | **${pct(1 - kept)}** |`);
}
await closeEncoder();
const s = defaultDomainSettings;
console.log(`${domain.count} prototypes, minimum similarity ${domain.minSimilarity.toFixed(4)} (keeps ${pct(s.keep)} of training prompts out of ${s.folds} folds)\n`);
console.log(lines.join('\n'));
console.log(`\nCost of one check (mean, CPU-bound, on this shared VM): ${timings.join('; ')}.`);
if (values.write) console.log(`wrote the domain into ${writeShippedModel({ ...shippedQualityModel(), domain })}`);

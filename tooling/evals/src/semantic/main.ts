/**
 * The semantic cache on the shared sentence encoder, measured: PAWS (one pair per source sentence
 * of paws-dev's held-out half, or of the whole `--paws` file; `a` stored, `b` asked), Quora beside
 * a plain cosine cache at equal recall (qqp-dev's held-out half), QQP dev's whole curve (`a`
 * cached, `b` asked), GPTCache's protocol (999 origins stored, each paraphrase asked against all of
 * them, through the production lookup), the near-miss set (0 hits), the pair model's CPU per pair
 * and the lookup cost at 1,000 and 10,000 entries. Prints the tables; `--write` puts them into
 * docs/caching.md.
 *
 *   pnpm --filter @svc/evals semantic [--embedder minilm|minilm-fp32|hashed] [--vectors /tmp/svc-semantic-minilm.bin] [--paws FILE] [--write]
 *     [--qqp-count N]   Quora on the first N pairs of the held-out half only, no whole-QQP curve (the
 *                       74,197 texts take 15 minutes to an hour to encode here); --write then fills
 *                       the pair-model block (semantic-pair-eval) instead of the full one
 *     [--skip-qqp]      PAWS, GPTCache and the near misses only
 *     [--encode-only]   encodes the texts into the vectors file and stops: no decision is run, no figure read
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { semanticKeyOf, similarityCalibration } from '@svc/semantic';
import { chatRequest } from '@svc/semantic/test';
import { findDataDir, loadParaphrases, loadQqp } from './dataset.js';
import { pawsSet } from './live/pairs.js';
import { loadNearMisses } from './near-misses.js';
import { loadPaws } from './paws.js';
import { pawsTable } from './paws-report.js';
import { quoraTable } from './quora-report.js';
import { costTable, gptCacheTable, nearMissLine, pairCostLine, pairLabel, qqpTables } from './report.js';
import { splitByQuestion } from './split.js';
import { tableEmbedder } from './vectors.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    embedder: { type: 'string', default: 'minilm' },
    vectors: { type: 'string' },
    write: { type: 'boolean', default: false },
    paws: { type: 'string' },
    'qqp-count': { type: 'string' },
    'skip-qqp': { type: 'boolean', default: false },
    'encode-only': { type: 'boolean', default: false },
  },
});
const started = performance.now();
const dir = findDataDir(process.cwd(), values.data);
if (values.write && values['skip-qqp']) throw new Error('--write needs the Quora tables: drop --skip-qqp');
const limit = values['qqp-count'] === undefined ? undefined : Number(values['qqp-count']);
const all = values['skip-qqp'] ? [] : loadQqp(dir);
const { heldOut: allHeldOut } = splitByQuestion(all);
// With --qqp-count only the first pairs of the held-out half are read (and embedded).
const qqp = limit === undefined ? all : allHeldOut.slice(0, limit);
const heldOut = limit === undefined ? allHeldOut : qqp;
const paraphrases = loadParaphrases(dir);
const nearMisses = loadNearMisses();
const paws = pawsSet(loadPaws(dir, values.paws), values.paws !== undefined);
// Exactly the text the cache embeds (the final user message, spacing collapsed).
const asked = (question: string): string => semanticKeyOf(chatRequest(question))?.text ?? question;
const texts = [...qqp.flatMap((p) => [p.a, p.b]), ...paraphrases.flatMap((p) => [p.origin, p.similar]), ...nearMisses.flatMap((p) => [p.a, p.b]), ...paws.pairs.flatMap((p) => [p.a, p.b])].map(asked);
const embedder = await tableEmbedder(values.embedder, texts, values.vectors ?? `/tmp/svc-semantic-${values.embedder}${limit === undefined ? '' : `-qqp${limit}`}.bin`);
if (values['encode-only']) {
  console.error(`encoded ${texts.length} texts; no figure read`);
  process.exit(0);
}
const calibration = similarityCalibration(embedder.id);
if (!calibration) throw new Error(`no similarity calibration for ${embedder.id} in @svc/semantic (thresholds.ts)`);

const out: string[] = [];
const say = (line = '') => {
  console.log(line);
  out.push(line);
};
say(`embedder ${embedder.id} (${embedder.dimensions} dimensions), ${(embedder.embedCpuUs / 1000).toFixed(2)} ms CPU per single-text embed (mean of 200); shipped decision: cosine >= ${calibration.threshold}, the near-miss guard, ambiguity margin ${calibration.margin} over ${calibration.candidates} candidates${embedder.pairReader ? `, ${pairLabel(embedder.pairReader)}` : ''}.`);
say();
for (const line of await pawsTable(embedder, paws.pairs, values.paws ? `all of ${values.paws}` : "paws-dev's held-out half (split by source sentence)")) say(line);
say();
if (qqp.length > 0) {
  const label = limit === undefined ? "qqp-dev's held-out half" : `the first ${heldOut.length} pairs of qqp-dev's held-out half`;
  for (const line of await quoraTable(embedder, heldOut, asked, calibration.threshold, label)) say(line);
  say();
  if (limit === undefined) for (const line of await qqpTables(embedder, qqp, heldOut, calibration, asked)) say(line);
  if (limit === undefined) say();
}
for (const line of await gptCacheTable(embedder, paraphrases, calibration)) say(line);
say();
say(await nearMissLine(embedder, nearMisses, asked));
say();
// Lookup cost: the `b` of the first 1,050 pairs asked against every other question stored (their own `a` among them).
const queries = qqp.slice(0, 1050).map((p) => asked(p.b));
const stored = [...new Set([...qqp.map((p) => asked(p.a)), ...qqp.slice(1050).map((p) => asked(p.b))])];
if (qqp.length > 0) for (const line of await costTable(embedder, stored, queries, calibration)) say(line);
const pairCost = await pairCostLine(
  embedder,
  paws.pairs.map((p) => [asked(p.a), asked(p.b)] as const),
  qqp.slice(0, 1050).map((p) => [asked(p.a), asked(p.b)] as const),
);
if (pairCost) say(['', pairCost].join('\n'));
console.log(`\ndone in ${((performance.now() - started) / 1000).toFixed(1)} s`);

if (values.write) {
  const file = new URL('../../../../docs/caching.md', import.meta.url);
  const block = limit === undefined ? 'semantic-encoder-eval' : 'semantic-pair-eval';
  const [start, end] = [`<!-- ${block}:start -->`, `<!-- ${block}:end -->`];
  const current = readFileSync(file, 'utf8');
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/caching.md lacks the ${start} / ${end} markers`);
  const command = `pnpm --filter @svc/evals semantic${limit === undefined ? '' : ` --qqp-count ${limit}`}`;
  const generated = `Generated by \`${command}\` (tooling/evals/src/semantic) on ${process.platform}/${process.arch}, Node ${process.version}.\n\n${out.join('\n')}\n`;
  writeFileSync(file, `${current.slice(0, from + start.length)}\n${generated}${current.slice(to)}`);
  console.log('wrote docs/caching.md');
}

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { semanticKeyOf } from '../eligibility.js';
import { wordTokens } from '../embedder/tokens.js';
import { keyTerms, sameKeyTerms } from '../entity-guard.js';
import { chatRequest } from '../test/fixtures.js';
import { findDataDir, halves, loadParaphrases, loadQqp } from './dataset.js';
import { embedAll, pickEmbedder } from './embedders.js';
import { runGptCacheProtocol } from './gptcache-protocol.js';
import { measureLookupCost } from './lookup-cost.js';
import { at, calibrate, type Operating, type Scored } from './metrics.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    slice: { type: 'string' },
    embedder: { type: 'string', default: 'hashed' },
    model: { type: 'string' },
    dimensions: { type: 'string' },
    target: { type: 'string', default: '0.97' },
    write: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const slice = values.slice === undefined ? undefined : Number(values.slice);
if (slice !== undefined && !(Number.isInteger(slice) && slice > 0)) throw new Error('--slice must be a positive integer');
const target = Number(values.target);
const started = performance.now();
const dir = findDataDir(process.cwd(), values.data);
const qqp = loadQqp(dir, slice);
const paraphrases = loadParaphrases(dir, slice);
const embedder = pickEmbedder(values.embedder, values.model, values.dimensions === undefined ? undefined : Number(values.dimensions));
// Exactly the text the cache embeds and guards (whitespace collapsed).
const asked = (question: string): string => semanticKeyOf(chatRequest(question))?.text ?? question;
const fixed = (x: number, d = 3) => x.toFixed(d);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const out: string[] = [];
const say = (line = '') => {
  console.log(line);
  out.push(line);
};

// 1. Embedding cost, one text per call as a lookup does.
const sample = qqp.slice(0, values.embedder === 'hashed' ? 5000 : 100).map((p) => asked(p.a));
const embedStarted = performance.now();
for (const text of sample) await embedder.embed([text]);
const embedUs = ((performance.now() - embedStarted) * 1000) / Math.max(1, sample.length);

// 2. QQP: similarity and key-term guard of every pair.
const vectors = await embedAll(embedder, qqp.flatMap((p) => [asked(p.a), asked(p.b)]));
const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};
const pairs = qqp.map((p) => {
  const [a, b] = [asked(p.a), asked(p.b)];
  return { score: dot(vectors.get(a)!, vectors.get(b)!), guard: sameKeyTerms(keyTerms(a), keyTerms(b)), same: wordTokens(a).join(' ') === wordTokens(b).join(' '), positive: p.duplicate };
});
const split = halves(pairs);
// The decision the cache makes: similarity at or above the threshold AND the guard passes.
const decided = (rows: typeof pairs): Scored[] => rows.map((r) => ({ score: r.guard ? r.score : -1, positive: r.positive }));
const raw = (rows: typeof pairs): Scored[] => rows.map((r) => ({ score: r.score, positive: r.positive }));
/** Share of pairs labelled duplicate among pairs whose words are identical: the best precision any similarity can show. */
const ceiling = (rows: typeof pairs) => {
  const same = rows.filter((r) => r.same);
  return { pairs: same.length, precision: same.length === 0 ? 1 : same.filter((r) => r.positive).length / same.length };
};
const ceilCal = ceiling(split.calibration);
const ceilRep = ceiling(split.report);
let operating: Operating | undefined = calibrate(decided(split.calibration), target);
let rule = `precision >= ${target} on the calibration half`;
if (!operating) {
  const relative = Math.floor(target * ceilCal.precision * 1000) / 1000;
  rule = `precision >= ${target} x label ceiling ${fixed(ceilCal.precision)} = ${fixed(relative)} on the calibration half (${target} itself is unreachable)`;
  operating = calibrate(decided(split.calibration), relative);
}
const threshold = operating?.threshold ?? 1;
const onReport = at(decided(split.report), threshold);
const onReportRaw = at(raw(split.report), threshold);

say(`embedder ${embedder.id} (${embedder.dimensions} dimensions): ${fixed(embedUs, 1)} us per embed (mean of ${sample.length} single-text calls)`);
say();
say(`QQP: ${qqp.length} pairs (${pct(qqp.filter((p) => p.duplicate).length / Math.max(1, qqp.length))} duplicates); calibration = even rows, report = odd rows.`);
say(
  `Label ceiling: pairs whose words are identical (case, spacing, punctuation aside) are labelled duplicates ${pct(ceilCal.precision)} of the time in the calibration half (${ceilCal.pairs} pairs), ${pct(ceilRep.precision)} in the report half (${ceilRep.pairs} pairs).`,
);
say(`Operating threshold ${fixed(threshold)}: rule ${rule}.`);
say(
  `Report half at ${fixed(threshold)}: precision ${fixed(onReport.precision)}, recall ${fixed(onReport.recall)} (${onReport.hits} hits) with the key-term guard; precision ${fixed(onReportRaw.precision)}, recall ${fixed(onReportRaw.recall)} on similarity alone.`,
);
say();
say('| threshold | precision (guard) | recall (guard) | hits (guard) | precision (similarity only) | recall (similarity only) |');
say('|---|---|---|---|---|---|');
const grid = [...new Set([1, 0.99, 0.98, 0.97, threshold, 0.96, 0.95, 0.94, 0.93, 0.92, 0.9, 0.85, 0.8, 0.7, 0.6, 0.5])].sort((a, b) => b - a);
for (const t of grid) {
  const g = at(decided(split.report), t);
  const r = at(raw(split.report), t);
  say(`| ${fixed(t)}${t === threshold ? ' (operating)' : ''} | ${fixed(g.precision)} | ${fixed(g.recall)} | ${g.hits} | ${fixed(r.precision)} | ${fixed(r.recall)} |`);
}

// 3. GPTCache's protocol over its 999 paraphrase pairs.
const thresholds = [...new Set([threshold, 0.95, 0.9, 0.8, 0.7])].sort((a, b) => b - a);
await embedAll(embedder, paraphrases.flatMap((p) => [asked(p.origin), asked(p.similar)]));
const protocol = await runGptCacheProtocol(embedder, paraphrases, thresholds);
say();
say(`GPTCache protocol: ${paraphrases.length} origins stored, each paraphrase looked up against the whole store (correct / wrong / miss).`);
say();
say('| threshold | with key-term guard | similarity only | GPTCache (ONNX, its own score scale) |');
say('|---|---|---|---|');
const published: Record<string, string> = { '0.95': '425 / 25 / 549 at its 0.95', '0.9': '804 / 77 / 118 at its 0.90', '0.8': '904 / 92 / 3 at its 0.80' };
for (const t of thresholds) {
  const g = protocol.find((c) => c.threshold === t && c.guard)!;
  const r = protocol.find((c) => c.threshold === t && !c.guard)!;
  say(`| ${fixed(t)}${t === threshold ? ' (operating)' : ''} | ${g.correct} / ${g.wrong} / ${g.miss} | ${r.correct} / ${r.wrong} / ${r.miss} | ${published[String(t)] ?? ''} |`);
}

// 4. Lookup cost (embed + search + guard) over the in-process store.
const stored = [...new Set(qqp.map((p) => asked(p.a)))];
const queries = qqp.slice(0, 1050).map((p) => asked(p.b));
say();
if (values.embedder !== 'hashed') say('(Provider embedder: the questions were embedded beforehand, so these times are search and guard only.)');
say('| entries in one org and scope | lookups | CPU per lookup | wall mean | wall p50 | wall p99 |');
say('|---|---|---|---|---|---|');
for (const entries of [1000, 10_000]) {
  if (stored.length < entries) continue;
  const cost = await measureLookupCost(embedder, stored, queries, entries);
  say(`| ${cost.entries} | ${cost.lookups} | ${fixed(cost.cpuUs / 1000, 2)} ms | ${fixed(cost.meanUs / 1000, 2)} ms | ${fixed(cost.p50Us / 1000, 2)} ms | ${fixed(cost.p99Us / 1000, 2)} ms |`);
}
say();
say(`done in ${fixed((performance.now() - started) / 1000, 1)} s`);

if (values.write && slice === undefined && values.embedder === 'hashed' && values.dimensions === undefined) {
  const here = dirname(fileURLToPath(import.meta.url));
  const targetFile = join(here, '..', '..', '..', '..', 'docs', 'caching.md');
  const [start, end] = ['<!-- semantic-eval:start -->', '<!-- semantic-eval:end -->'];
  const current = readFileSync(targetFile, 'utf8');
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${targetFile} lacks the ${start} / ${end} markers`);
  const generated = `Generated by \`pnpm --filter @svc/semantic eval\` (packages/semantic/src/eval) on ${process.platform}/${process.arch}, Node ${process.version}.\n\n${out.filter((l) => !l.startsWith('done in')).join('\n')}\n`;
  writeFileSync(targetFile, `${current.slice(0, from + start.length)}\n${generated}${current.slice(to)}`);
  console.log('wrote docs/caching.md');
}

/**
 * The per-task learner's simulation through a running gateway (docs/routing.md, "Measured in a
 * simulation"): RouteLLM's MMLU outcomes (GPT-4 / Mixtral; not a reserved set) answered by two
 * catalog models through the mock upstream, 5% judged, 15% of verdicts flipped.
 *
 *   pnpm --filter @svc/evals router:simulate-live [--requests 20000] [--judged 0.05] [--flip 0.15] [--concurrency 4] [--model svc/auto] [--dial d]
 *     [--strong openai/gpt-5.4] [--weak openai/gpt-5.4-nano]
 */
import { parseArgs } from 'node:util';
import { builtInModels } from '@svc/catalog';
import { createRouter } from '@svc/router';
import { createCatalog } from '@svc/catalog';
import { findRouteLlmDir, loadRouteLlmMmlu } from './data.js';
import { type LiveModel, type LiveSettings, type Served, runLive } from './simulate-live.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    judged: { type: 'string', default: '0.05' },
    flip: { type: 'string', default: '0.15' },
    concurrency: { type: 'string', default: '4' },
    seed: { type: 'string', default: '1' },
    strong: { type: 'string', default: 'openai/gpt-5.4' },
    weak: { type: 'string', default: 'openai/gpt-5.4-nano' },
    every: { type: 'string', default: '2000' },
    model: { type: 'string', default: 'svc/auto' },
    dial: { type: 'string' },
    mmlu: { type: 'string' },
  },
});

const priced = (slug: string, column: string): LiveModel => {
  const model = builtInModels.find((m) => m.id === slug);
  if (!model) throw new Error(`${slug} is not in the catalog`);
  return { slug, column, input: model.inputPricePerMTok, output: model.outputPricePerMTok };
};
const settings: LiveSettings = {
  strong: priced(values.strong, 'gpt-4-1106-preview'),
  weak: priced(values.weak, 'mistralai/Mixtral-8x7B-Instruct-v0.1'),
  requests: Number(values.requests),
  judged: Number(values.judged),
  flip: Number(values.flip),
  seed: Number(values.seed),
  concurrency: Number(values.concurrency),
  model: values.model,
  dial: values.dial === undefined ? undefined : Number(values.dial),
};
const items = loadRouteLlmMmlu(findRouteLlmDir(process.cwd(), values.mmlu), new Map());
const started = performance.now();
const { served, extra, learned, start } = await runLive(items, settings, (line) => process.stderr.write(`${line}\n`));
const seconds = (performance.now() - started) / 1000;

const costAs = (m: LiveModel, r: Served) => (r.promptTokens * m.input + r.completionTokens * m.output) / 1e6;
const right = (m: LiveModel, r: Served) => r.item.correct[m.column] === true;
const servedModel = (r: Served): LiveModel => (r.model === settings.weak.slug || r.model.endsWith(settings.weak.slug.split('/')[1]!) ? settings.weak : settings.strong);
const family = createRouter({ catalog: createCatalog([]), quality: false, embedder: false, learner: false });
const kinds = new Map<string, string>();
/** The router's task family of a request's prompt (classified once per prompt). */
const kindOf = (r: Served) => {
  let kind = kinds.get(r.item.prompt);
  if (kind === undefined) {
    kind = family.classify({ model: 'svc/auto', messages: [{ role: 'user', content: r.item.prompt }], stream: false, n: 1, includeUsage: false }).taskFamily;
    kinds.set(r.item.prompt, kind);
  }
  return kind;
};

/** Per task family, the better model over the first `n` requests (the per-task oracle), against always-strong. */
function oracle(rows: readonly Served[]): { quality: number; cost: number } {
  const byKind = new Map<string, Served[]>();
  for (const r of rows) {
    const kind = byKind.get(kindOf(r));
    if (kind) kind.push(r);
    else byKind.set(kindOf(r), [r]);
  }
  let good = 0;
  let cost = 0;
  for (const kind of byKind.values()) {
    const strongRight = kind.filter((r) => right(settings.strong, r)).length;
    const weakRight = kind.filter((r) => right(settings.weak, r)).length;
    const pick = weakRight >= strongRight ? settings.weak : settings.strong;
    good += Math.max(strongRight, weakRight);
    cost += kind.reduce((s, r) => s + costAs(pick, r), 0);
  }
  const strongRight = rows.filter((r) => right(settings.strong, r)).length;
  return { quality: good / strongRight, cost: cost / rows.reduce((s, r) => s + costAs(settings.strong, r), 0) };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
console.log(`${settings.requests} RouteLLM MMLU requests through a running gateway in ${seconds.toFixed(0)} s, asked as \`${settings.model}\`${settings.dial === undefined ? '' : ` with preference_dial ${settings.dial}`}: ${settings.strong.slug} answers as GPT-4-1106, ${settings.weak.slug} as Mixtral-8x7B; shadow judging at ${pct(settings.judged)} (candidates the pool's defaults: the other model either way; judge ${settings.strong.slug}), ${pct(settings.flip)} of verdicts flipped.`);
console.log('\n| requests | quality vs always-strong | cost vs always-strong (served + shadow + judge) | of which shadow + judge | weak share | judged | per-task oracle (quality, cost) |');
console.log('|---|---|---|---|---|---|---|');
const every = Number(values.every);
for (let n = every; n <= served.length; n += every) {
  const rows = served.slice(0, n);
  const quality = rows.filter((r) => right(servedModel(r), r)).length / rows.filter((r) => right(settings.strong, r)).length;
  const spent = rows.reduce((s, r) => s + r.costUsd + (extra.get(r.requestId) ?? 0), 0);
  const cost = spent / rows.reduce((s, r) => s + costAs(settings.strong, r), 0);
  const weak = rows.filter((r) => servedModel(r) === settings.weak).length / n;
  const judged = rows.filter((r) => extra.has(r.requestId)).length / n;
  const judging = rows.reduce((s, r) => s + (extra.get(r.requestId) ?? 0), 0) / rows.reduce((s, r) => s + costAs(settings.strong, r), 0);
  const o = oracle(rows);
  console.log(`| ${n} | ${pct(quality)} | ${pct(cost)} | ${pct(judging)} | ${pct(weak)} | ${pct(judged)} | ${pct(o.quality)}, ${pct(o.cost)} |`);
}
const weakAlways = served.filter((r) => right(settings.weak, r)).length / served.filter((r) => right(settings.strong, r)).length;
const weakCost = served.reduce((s, r) => s + costAs(settings.weak, r), 0) / served.reduce((s, r) => s + costAs(settings.strong, r), 0);
console.log(`\nAlways-weak: quality ${pct(weakAlways)} at cost ${pct(weakCost)}. Served models: ${[...new Set(served.map((r) => r.model))].join(', ')}.`);
console.log('\nJudged win rate of the candidate model against the served one, per task kind (`/v1/observability/benchmarks`):');
for (const j of learned.judged) console.log(`- ${j.task_kind}: ${j.model} ${j.win_rate.toFixed(3)} [${j.interval.low.toFixed(3)}, ${j.interval.high.toFixed(3)}] over ${j.samples} pairs`);
console.log(`Learner's route-change rulings (\`/v1/admin/routing/gate\`): ${learned.rulings.length === 0 ? 'none' : learned.rulings.map((r) => `${r.task_kind} ${r.from} -> ${r.to} ${r.status} (${r.reason}; ${r.decisions ?? '?'} decisions, the latest at ${r.judged?.win_rate?.toFixed(3) ?? '?'} over ${r.judged?.samples ?? '?'} pairs)`).join('; ')}.`);
console.log(
  `Router's live latency figures over the first 2,000 requests (${start.sampled} decisions sampled): ${settings.weak.slug} the faster in ${pct(start.weakFaster)}, medians ${start.medianStrongMs} ms (${settings.strong.slug}) / ${start.medianWeakMs} ms (${settings.weak.slug}).`,
);

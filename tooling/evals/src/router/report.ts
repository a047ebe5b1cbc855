import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AlternativeResult } from './alternatives.js';
import type { PairResult } from './api-eval.js';

export interface FoldReport {
  /** The dev set held out (a source, or a fold of subject groups). */
  name: string;
  train: number;
  results: { pair: string; source: string; result: PairResult; perTask?: { task: string; result: PairResult }[] }[];
  alternatives: AlternativeResult[];
  seconds: number;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const f3 = (x: number) => x.toFixed(3);

function pairTable(reports: readonly FoldReport[]): string[] {
  const lines = [
    '| dev set | prompts | weak / strong acc. | APGR (random ± sd of one order) | CPT(50%) (random) | CPT(80%) (random) | saving at 95% (random) | strong share at strongShare 0.5 |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const byPair = new Map<string, PairResult[]>();
  for (const r of reports) {
    for (const { pair, source, result: m } of r.results) {
      const name = `${source}: ${pair}`;
      byPair.set(name, [...(byPair.get(name) ?? []), m]);
      lines.push(
        `| ${name}, ${r.name} | ${m.rows} | ${pct(m.weakAccuracy)} / ${pct(m.strongAccuracy)} | **${f3(m.learned.apgr)}** (${f3(m.random.apgr)} ± ${f3(m.random.apgrSd)}) | ${pct(m.learned.cpt50)} (${pct(m.random.cpt50)}) | ${pct(m.learned.cpt80)} (${pct(m.random.cpt80)}) | **${pct(m.learned.saving95)}** (${pct(m.random.saving95)}) | ${pct(m.routedShareAt50)} |`,
      );
    }
  }
  for (const [name, ms] of byPair) {
    const mean = (pick: (m: PairResult) => number) => ms.reduce((s, m) => s + pick(m), 0) / ms.length;
    lines.push(
      `| **${name}, mean of ${ms.length} folds** | ${Math.round(mean((m) => m.rows))} | ${pct(mean((m) => m.weakAccuracy))} / ${pct(mean((m) => m.strongAccuracy))} | **${f3(mean((m) => m.learned.apgr))}** (${f3(mean((m) => m.random.apgr))} ± ${f3(mean((m) => m.random.apgrSd))}) | ${pct(mean((m) => m.learned.cpt50))} (${pct(mean((m) => m.random.cpt50))}) | ${pct(mean((m) => m.learned.cpt80))} (${pct(mean((m) => m.random.cpt80))}) | **${pct(mean((m) => m.learned.saving95))}** (${pct(mean((m) => m.random.saving95))}) | ${pct(mean((m) => m.routedShareAt50))} |`,
    );
  }
  return lines;
}

/** Per held-out task (subject group) of each dev set: APGR and saving at 95%, against random; then the mean over tasks. */
function taskTable(reports: readonly FoldReport[]): string[] {
  const lines = ['| dev set | task | prompts | weak / strong acc. | APGR (random) | saving at 95% (random) |', '|---|---|---|---|---|---|'];
  for (const r of reports) {
    for (const { pair, source, perTask } of r.results) {
      // A task where both models are right equally often has no PGR scale (0/0): listed, left out of the mean.
      const scored = (perTask ?? []).filter((t) => Number.isFinite(t.result.learned.apgr));
      if (scored.length === 0) continue;
      for (const { task, result: m } of perTask ?? []) {
        lines.push(`| ${source}: ${pair} | ${task} | ${m.rows} | ${pct(m.weakAccuracy)} / ${pct(m.strongAccuracy)} | ${f3(m.learned.apgr)} (${f3(m.random.apgr)}) | ${pct(m.learned.saving95)} (${pct(m.random.saving95)}) |`);
      }
      const mean = (pick: (m: PairResult) => number) => scored.reduce((s, t) => s + pick(t.result), 0) / scored.length;
      const below = scored.filter((t) => t.result.learned.apgr < t.result.random.apgr).length;
      lines.push(
        `| **${source}: ${pair}, ${r.name}** | **mean of ${scored.length} tasks** (${below} below random) | ${Math.round(mean((m) => m.rows))} | ${pct(mean((m) => m.weakAccuracy))} / ${pct(mean((m) => m.strongAccuracy))} | **${f3(mean((m) => m.learned.apgr))}** (${f3(mean((m) => m.random.apgr))}) | **${pct(mean((m) => m.learned.saving95))}** (${pct(mean((m) => m.random.saving95))}) |`,
      );
    }
  }
  return lines;
}

function alternativeTable(reports: readonly FoldReport[]): string[] {
  const sums = new Map<string, { apgr: number; saving: number; n: number }>();
  for (const r of reports) {
    for (const a of r.alternatives) {
      const key = `${a.pair} | ${a.name}`;
      const s = sums.get(key) ?? { apgr: 0, saving: 0, n: 0 };
      sums.set(key, { apgr: s.apgr + a.apgr, saving: s.saving + a.saving95, n: s.n + 1 });
    }
  }
  if (sums.size === 0) return [];
  const lines = ['| pair | quality model (alternative) | mean APGR | mean saving at 95% |', '|---|---|---|---|'];
  for (const [key, s] of sums) lines.push(`| ${key} | ${f3(s.apgr / s.n)} | ${pct(s.saving / s.n)} |`);
  return lines;
}

/** The report as markdown: one row per dev set and fold, the means, the alternatives. */
export function printReport(reports: readonly FoldReport[]): string {
  return [
    'Always-weak: APGR 0 at 0% strong calls; always-strong: PGR 1 at 100% (cost 100%); random: in parentheses (mean of 20 orders); the oracle reaches APGR ~0.9 on these sets.',
    '',
    ...pairTable(reports),
    '',
    'Per held-out task (each data set or subject group on its own, as the acceptance scores them):',
    '',
    ...taskTable(reports),
    '',
    ...alternativeTable(reports),
  ].join('\n');
}

/** Rewrites the generated section of docs/routing.md (between `<!-- eval:start -->` and `<!-- eval:end -->`). */
export function writeDocs(text: string): void {
  const path = resolve(process.cwd(), '../../docs/routing.md');
  const doc = readFileSync(path, 'utf8');
  const start = doc.indexOf('<!-- eval:start -->');
  const end = doc.indexOf('<!-- eval:end -->');
  if (start < 0 || end < start) throw new Error('docs/routing.md has no eval markers');
  const stamp = `Generated by \`pnpm --filter @svc/evals router --write\` on ${new Date().toISOString().slice(0, 10)}.`;
  writeFileSync(path, `${doc.slice(0, start)}<!-- eval:start -->\n${stamp}\n\n${text}\n${doc.slice(end)}`);
}

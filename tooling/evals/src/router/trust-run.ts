import type { QualityModel, RequestEmbedder } from '@svc/router';
import { type PairResult, evaluatePair } from './api-eval.js';
import type { Item } from './data.js';
import type { Pair } from './pairs.js';
import { type FamilyResult, type FamilyTrust, decideTrust, familyOf, trustOf, trustTable } from './trust.js';

/** One pair of one held-out fold: what the trust rule and its figure need to rank it again. */
export interface HeldOutPair {
  fold: string;
  pair: Pair;
  quality: QualityModel;
  priors: readonly Item[];
  dev: readonly Item[];
}

const pairName = (p: Pair) => `${p.source}: ${p.strong} / ${p.weak}`;

/** Each pair's held-out prompts split by the router's task family, ranked through `winRate` (families with at least 50 prompts). */
export async function familyResults(held: readonly HeldOutPair[], embedder: RequestEmbedder): Promise<FamilyResult[]> {
  const out: FamilyResult[] = [];
  const families = new Map<string, ReturnType<typeof familyOf>>();
  const family = (prompt: string) => families.get(prompt) ?? families.set(prompt, familyOf(prompt)).get(prompt)!;
  for (const h of held) {
    const byFamily = new Map<ReturnType<typeof familyOf>, Item[]>();
    for (const item of h.dev) byFamily.set(family(item.prompt), [...(byFamily.get(family(item.prompt)) ?? []), item]);
    for (const [f, dev] of byFamily) {
      const result = await evaluatePair(h.pair, { quality: h.quality, priors: h.priors, dev, embedder });
      if (result) out.push({ family: f, fold: h.fold, pair: pairName(h.pair), result });
    }
  }
  return out;
}

/** The rule's verdicts, its table, and every pair ranked again with the prior where the rule says so, beside the plain ranking and random. */
export async function trustReport(held: readonly HeldOutPair[], embedder: RequestEmbedder): Promise<{ rows: FamilyTrust[]; text: string }> {
  const detail = await familyResults(held, embedder);
  const rows = decideTrust(detail);
  const trust = trustOf(rows);
  const lines = [
    '| held-out source, pair | prompts | APGR, ranking everywhere | APGR, prior where not trusted | random (± sd of one order) | prompts read as the prior |',
    '|---|---|---|---|---|---|',
  ];
  const margins: { plain: number; guarded: number }[] = [];
  for (const h of held) {
    const plain: PairResult | undefined = await evaluatePair(h.pair, { quality: h.quality, priors: h.priors, dev: h.dev, embedder });
    const guarded = await evaluatePair(h.pair, { quality: h.quality, priors: h.priors, dev: h.dev, embedder, trust });
    if (!plain || !guarded) continue;
    const fallback = h.dev.filter((i) => trust.families[familyOf(i.prompt)] !== true).length;
    margins.push({ plain: plain.learned.apgr - plain.random.apgr, guarded: guarded.learned.apgr - guarded.random.apgr });
    lines.push(
      `| ${pairName(h.pair)} (${h.fold}) | ${plain.rows} | ${plain.learned.apgr.toFixed(3)} | **${guarded.learned.apgr.toFixed(3)}** | ${plain.random.apgr.toFixed(3)} ± ${plain.random.apgrSd.toFixed(3)} | ${((100 * fallback) / h.dev.length).toFixed(0)}% |`,
    );
  }
  const mean = (pick: (m: { plain: number; guarded: number }) => number) => margins.reduce((s, m) => s + pick(m), 0) / Math.max(1, margins.length);
  const worst = (pick: (m: { plain: number; guarded: number }) => number) => Math.min(...margins.map(pick));
  lines.push(
    '',
    `Mean margin over random: ranking everywhere ${mean((m) => m.plain).toFixed(3)} (worst ${worst((m) => m.plain).toFixed(3)}); prior where not trusted ${mean((m) => m.guarded).toFixed(3)} (worst ${worst((m) => m.guarded).toFixed(3)}).`,
  );
  return { rows, text: `${trustTable(rows, detail)}\n\n${lines.join('\n')}` };
}

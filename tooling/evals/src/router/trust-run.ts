import { type QualityModel, type RequestEmbedder, type TrainingDomain, inTrainingDomain } from '@svc/router';
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
  /** The fold's training prompts' region (`--domain`): prompts outside it read as the prior too. */
  domain?: TrainingDomain | undefined;
}

interface Margins {
  plain: number;
  guarded: number;
  domain: number;
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
  const withDomain = held.some((h) => h.domain);
  const lines = [
    `| held-out source, pair | prompts | APGR, ranking everywhere | APGR, prior where not trusted | ${withDomain ? 'APGR, prior also unlike the training prompts | ' : ''}random (± sd of one order) | prompts read as the prior |`,
    `|---|---|---|---|${withDomain ? '---|' : ''}---|---|`,
  ];
  const margins: Margins[] = [];
  for (const h of held) {
    const settings = { quality: h.quality, priors: h.priors, dev: h.dev, embedder };
    const plain: PairResult | undefined = await evaluatePair(h.pair, settings);
    const guarded = await evaluatePair(h.pair, { ...settings, trust });
    const domained = h.domain ? await evaluatePair(h.pair, { ...settings, quality: { ...h.quality, domain: h.domain }, trust }) : guarded;
    if (!plain || !guarded || !domained) continue;
    const vectors = h.domain ? await embedder.embed(h.dev.map((i) => i.prompt)) : [];
    const fallback = h.dev.filter((i, at) => trust.families[familyOf(i.prompt)] !== true || (h.domain !== undefined && !inTrainingDomain(h.domain, vectors[at]!))).length;
    const margin = (r: PairResult) => r.learned.apgr - r.random.apgr;
    margins.push({ plain: margin(plain), guarded: margin(guarded), domain: margin(domained) });
    lines.push(
      `| ${pairName(h.pair)} (${h.fold}) | ${plain.rows} | ${plain.learned.apgr.toFixed(3)} | **${guarded.learned.apgr.toFixed(3)}** | ${withDomain ? `**${domained.learned.apgr.toFixed(3)}** | ` : ''}${plain.random.apgr.toFixed(3)} ± ${plain.random.apgrSd.toFixed(3)} | ${((100 * fallback) / h.dev.length).toFixed(0)}% |`,
    );
  }
  const mean = (pick: (m: Margins) => number) => margins.reduce((s, m) => s + pick(m), 0) / Math.max(1, margins.length);
  const worst = (pick: (m: Margins) => number) => Math.min(...margins.map(pick));
  const summary = (pick: (m: Margins) => number) => `${mean(pick).toFixed(3)} (worst ${worst(pick).toFixed(3)})`;
  lines.push(
    '',
    `Mean margin over random: ranking everywhere ${summary((m) => m.plain)}; prior where not trusted ${summary((m) => m.guarded)}${withDomain ? `; prior also unlike the training prompts ${summary((m) => m.domain)}` : ''}.`,
  );
  return { rows, text: `${trustTable(rows, detail)}\n\n${lines.join('\n')}` };
}

import { createCatalog } from '@svc/catalog';
import { type QualityModel, type QualityTrust, type RequestEmbedder, createRouter } from '@svc/router';
import type { Item } from './data.js';
import { type Row, type RouterMetrics, evaluate, rank, seeded } from './metrics.js';
import { type Pair, pairSpecs } from './pairs.js';

/** An embedder that answers from vectors computed once (the eval's stand-in for the shared encoder). */
export function lookupEmbedder(items: readonly Item[], vectors: readonly Float32Array[]): RequestEmbedder {
  const byText = new Map<string, Float32Array>();
  items.forEach((item, i) => {
    byText.set(item.prompt, vectors[i]!);
  });
  return {
    embed: async (texts) =>
      texts.map((t) => {
        const v = byText.get(t);
        if (!v) throw new Error('lookup embedder: text not embedded beforehand');
        return v;
      }),
  };
}

export interface PairResult {
  rows: number;
  weakAccuracy: number;
  strongAccuracy: number;
  learned: RouterMetrics;
  random: RandomMetrics;
  oracle: RouterMetrics;
  /** Strong share `route()` produced on the dev prompts with `strongShare: 0.5` (threshold calibrated on the training distribution). */
  routedShareAt50: number;
}

const meanOf = (runs: readonly RouterMetrics[], pick: (m: RouterMetrics) => number) => runs.reduce((s, m) => s + pick(m), 0) / runs.length;

/** The random router's expected metrics, and how far one random order's APGR strays from them. */
export interface RandomMetrics extends RouterMetrics {
  /** Standard deviation of APGR over the orders: a router within about two of it from the mean is not told apart from random on this set. */
  apgrSd: number;
}

/** The random router's expected metrics (mean of 20 seeded orders). */
export function randomMetrics<R extends Row>(rows: readonly R[], prices: Pair['prices']): RandomMetrics {
  return averaged(
    Array.from({ length: 20 }, (_, s) => {
      const next = seeded(s + 1);
      return evaluate(rank(rows, rows.map(() => next())), prices);
    }),
  );
}

/**
 * A ranking's expected metrics when its ties are broken at random (mean of 20 seeded orders): what
 * the prior (every prompt of a family read alike) is worth, without the file order deciding.
 */
function tiesAtRandom(rows: readonly Row[], scores: readonly number[], prices: Pair['prices']): RandomMetrics {
  const spread = Math.max(...scores) - Math.min(...scores) || 1;
  return averaged(
    Array.from({ length: 20 }, (_, s) => {
      const next = seeded(s + 101);
      return evaluate(rank(rows, scores.map((w) => w + next() * spread * 1e-9)), prices);
    }),
  );
}

/** The mean of several runs' metrics, with the spread of their APGR. */
function averaged(runs: readonly RouterMetrics[]): RandomMetrics {
  const apgr = meanOf(runs, (m) => m.apgr);
  return {
    curve: [],
    apgr,
    apgrSd: Math.sqrt(meanOf(runs, (m) => (m.apgr - apgr) ** 2)),
    cpt50: meanOf(runs, (m) => m.cpt50),
    cpt80: meanOf(runs, (m) => m.cpt80),
    share95: meanOf(runs, (m) => m.share95),
    saving95: meanOf(runs, (m) => m.saving95),
  };
}

/**
 * Scores one pair on dev items through the public API only: `createRouter` with the pair as
 * minimal specs, `winRate` per prompt for the ranking, `route` with `strongShare` for calibration.
 */
export async function evaluatePair(
  pair: Pair,
  settings: { quality: QualityModel; priors: readonly Item[]; dev: readonly Item[]; embedder: RequestEmbedder; trust?: QualityTrust },
): Promise<PairResult | undefined> {
  const dev = settings.dev.filter((i) => i.correct[pair.strong] !== undefined && i.correct[pair.weak] !== undefined);
  if (dev.length < 50) return undefined;
  const [strong, weak] = pairSpecs(pair, settings.priors);
  const router = createRouter({ catalog: createCatalog([]), models: [strong!, weak!], quality: settings.quality, qualityTrust: settings.trust, embedder: settings.embedder, guard: false });
  const wins: number[] = [];
  let routedStrong = 0;
  for (const item of dev) {
    wins.push(await router.winRate(item.prompt, strong!.id, weak!.id));
    const embedding = await router.embed(item.prompt);
    const request = { model: 'svc/auto', messages: [{ role: 'user' as const, content: item.prompt }], stream: false, n: 1, includeUsage: false };
    if (router.route(request, { embedding, strongShare: 0.5, strongModel: strong!.id, weakModel: weak!.id }).model.id === strong!.id) routedStrong++;
  }
  const rows: Row[] = dev.map((i) => ({ strong: i.correct[pair.strong]!, weak: i.correct[pair.weak]! }));
  const share = (key: 'weak' | 'strong') => rows.filter((r) => r[key]).length / rows.length;
  return {
    rows: rows.length,
    weakAccuracy: share('weak'),
    strongAccuracy: share('strong'),
    learned: settings.trust ? tiesAtRandom(rows, wins, pair.prices) : evaluate(rank(rows, wins), pair.prices),
    random: randomMetrics(rows, pair.prices),
    oracle: evaluate(rank(rows, rows.map((r) => (r.strong && !r.weak ? 1 : r.weak && !r.strong ? -1 : 0))), pair.prices),
    routedShareAt50: routedStrong / dev.length,
  };
}

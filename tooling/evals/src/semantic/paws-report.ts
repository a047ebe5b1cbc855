import type { Embedder, SemanticCacheSettings } from '@svc/semantic';
import type { QqpPair } from './dataset.js';
import { simulateProtocol } from './live/offline.js';
import { type PawsScore, pawsHeader, pawsRow, scorePaws } from './paws-protocol.js';

/** A plain cosine cache: the nearest stored question at cosine >= t is served; no guard, no margin, no pair model. */
export const plainCosine = (threshold: number): Partial<SemanticCacheSettings> => ({ threshold, keyTermGuard: false, ambiguityMargin: 0, candidates: 1, pairReader: false });

const runPaws = async (embedder: Embedder, pairs: readonly QqpPair[], decision: Partial<SemanticCacheSettings>): Promise<PawsScore> =>
  scorePaws(pairs, await simulateProtocol(embedder, pairs, 'a-then-b', 1_000_000, decision));

/**
 * The plain cosine cache whose paraphrase recall (hits by the own `a`) comes closest to `target`
 * from above, over thresholds 0.800-0.999: the baseline "at equal recall".
 */
export async function plainAtRecall(embedder: Embedder, pairs: readonly QqpPair[], target: number): Promise<{ threshold: number; score: PawsScore }> {
  let [low, high] = [0.8, 0.999];
  let best = { threshold: low, score: await runPaws(embedder, pairs, plainCosine(low)) };
  for (let step = 0; step < 9; step++) {
    const mid = (low + high) / 2;
    const score = await runPaws(embedder, pairs, plainCosine(mid));
    if (score.paraphrasesByOwnA >= target) [low, best] = [mid, { threshold: mid, score }];
    else high = mid;
  }
  return best;
}

/** PAWS's protocol through the production lookup: the shipped cache, without its pair model, and plain cosine caches beside it. */
export async function pawsTable(embedder: Embedder, pairs: readonly QqpPair[], source: string): Promise<string[]> {
  const shipped = await runPaws(embedder, pairs, {});
  const lines = [
    `PAWS (${source}: ${pairs.length} pairs, one per source sentence; every \`a\` asked and stored on a miss, then every \`b\` asked; production lookup in process, no eviction).`,
    '',
    ...pawsHeader,
    pawsRow(`shipped: cosine >= 0.85, guard, margin, pair model${embedder.pairReader ? ` (${embedder.pairReader.id}, p >= ${embedder.pairReader.threshold})` : ' (none)'}`, shipped),
    pawsRow('shipped without the pair model (the decision before it)', await runPaws(embedder, pairs, { pairReader: false })),
  ];
  const equal = await plainAtRecall(embedder, pairs, shipped.paraphrasesByOwnA);
  lines.push(pawsRow(`plain cosine cache at the shipped paraphrase recall (cosine >= ${equal.threshold.toFixed(4)})`, equal.score));
  for (const t of [0.85, 0.9, 0.95, 0.97, 0.99]) lines.push(pawsRow(`plain cosine cache, cosine >= ${t}`, await runPaws(embedder, pairs, plainCosine(t))));
  return lines;
}

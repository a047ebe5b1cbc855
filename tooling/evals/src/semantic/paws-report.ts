import type { Embedder, PairReader, SemanticCacheSettings } from '@svc/semantic';
import type { QqpPair } from './dataset.js';
import type { Protocol } from './live/client.js';
import { simulateProtocol } from './live/offline.js';
import { type PawsScore, pawsHeader, pawsRow, scorePaws } from './paws-protocol.js';
import { baseAlone, pairLabel, pairThresholds } from './report.js';

/** A plain cosine cache: the nearest stored question at cosine >= t is served; no guard, no margin, no pair model. */
export const plainCosine = (threshold: number): Partial<SemanticCacheSettings> => ({ threshold, keyTermGuard: false, ambiguityMargin: 0, candidates: 1, pairReader: false });

const runPaws = async (embedder: Embedder, pairs: readonly QqpPair[], decision: Partial<SemanticCacheSettings>, protocol: Protocol = 'a-then-b'): Promise<PawsScore> =>
  scorePaws(pairs, await simulateProtocol(embedder, pairs, protocol, 1_000_000, decision));

/**
 * The highest cosine threshold in 0.800-0.999 (bisection, 9 steps) at which `reaches` holds for a
 * plain cosine cache's score: the baseline at the same recall as a decision being compared.
 */
export async function plainAtThreshold<T>(run: (threshold: number) => Promise<T>, reaches: (score: T) => boolean): Promise<{ threshold: number; score: T }> {
  let [low, high] = [0.8, 0.999];
  let best = { threshold: low, score: await run(low) };
  for (let step = 0; step < 9; step++) {
    const mid = (low + high) / 2;
    const score = await run(mid);
    if (reaches(score)) [low, best] = [mid, { threshold: mid, score }];
    else high = mid;
  }
  return best;
}

/** The plain cosine cache whose paraphrase recall (hits by the own `a`) comes closest to `target` from above. */
export const plainAtRecall = (embedder: Embedder, pairs: readonly QqpPair[], target: number, protocol: Protocol = 'a-then-b') =>
  plainAtThreshold(
    (t) => runPaws(embedder, pairs, plainCosine(t), protocol),
    (score) => score.paraphrasesByOwnA >= target,
  );

/** PAWS's protocol through the production lookup: the shipped cache, without its pair model, and plain cosine caches beside it. */
export async function pawsTable(embedder: Embedder & { basePairReader?: PairReader; previousPairReader?: PairReader }, pairs: readonly QqpPair[], source: string): Promise<string[]> {
  const shipped = await runPaws(embedder, pairs, {});
  const lines = [
    `PAWS (${source}: ${pairs.length} pairs, one per source sentence; every \`a\` asked and stored on a miss, then every \`b\` asked; production lookup in process, no eviction).`,
    '',
    ...pawsHeader,
    pawsRow(`shipped: cosine >= 0.85, guard, margin, ${pairLabel(embedder.pairReader)}`, shipped),
  ];
  const previous = embedder.previousPairReader;
  if (previous) lines.push(pawsRow(`shipped with the previous role model ${previous.id === embedder.pairReader?.id ? 'minilm-role-v1' : 'minilm-role-v2'}, p >= ${previous.threshold} (the decision before this one)`, await runPaws(embedder, pairs, { pairReader: previous })));
  const base = baseAlone(embedder);
  if (base) lines.push(pawsRow(`shipped with the ${pairLabel(base)} alone (the decision before the role model)`, await runPaws(embedder, pairs, { pairReader: base })));
  lines.push(pawsRow('shipped without a pair model (the decision before it)', await runPaws(embedder, pairs, { pairReader: false })));
  for (const reader of pairThresholds(embedder)) lines.push(pawsRow(`shipped with the ${pairLabel(reader)}`, await runPaws(embedder, pairs, { pairReader: reader })));
  const equal = await plainAtRecall(embedder, pairs, shipped.paraphrasesByOwnA);
  lines.push(pawsRow(`plain cosine cache at the shipped paraphrase recall (cosine >= ${equal.threshold.toFixed(4)})`, equal.score));
  for (const t of [0.85, 0.9, 0.95, 0.97, 0.99]) lines.push(pawsRow(`plain cosine cache, cosine >= ${t}`, await runPaws(embedder, pairs, plainCosine(t))));
  return lines;
}

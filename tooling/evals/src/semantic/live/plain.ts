import type { Embedder } from '@svc/semantic';
import { plainAtThreshold, plainCosine } from '../paws-report.js';
import type { Protocol } from './client.js';
import { simulateProtocol } from './offline.js';
import type { LiveSet } from './pairs.js';
import { type LiveScore, scoreRun } from './score.js';

/**
 * A plain cosine cache (nearest at cosine >= t; no guard, margin or pair model) in process on the
 * same protocol, at the highest threshold in 0.800-0.999 whose strict right hits reach `target`.
 */
export const plainAtStrictRecall = (embedder: Embedder, set: LiveSet, protocol: Protocol, target: number): Promise<{ threshold: number; score: LiveScore }> =>
  plainAtThreshold(
    async (t) => scoreRun(set, set.pairs, await simulateProtocol(embedder, set.pairs, protocol, 1_000_000, plainCosine(t))),
    (score) => score.strictRight >= target,
  );

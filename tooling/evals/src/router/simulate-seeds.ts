import type { SimulationResult } from './simulate.js';

/** Several seeds' runs of the same stream, summed up as docs/routing.md tables them. */
export interface SeedsSummary {
  runs: number;
  /** Mean cumulative quality (vs the strong model) at the last checkpoint. */
  meanQuality: number;
  /** Runs whose last checkpoint reads >= 98%. */
  atGoal: number;
  /** Mean over runs of the lowest cumulative quality from the first checkpoint on (2,000 requests with the default `every`). */
  meanMin: number;
  /** The lowest of those minima. */
  lowestMin: number;
  /** Mean quality at the first checkpoint. */
  meanFirst: number;
  /** Mean cost (served + shadow + judge, vs the strong model) at the last checkpoint. */
  meanCost: number;
  /** Mean weak share at the last checkpoint. */
  meanWeakShare: number;
  /** Runs serving the strong model on more than 6% of the stream (weak share at the last checkpoint under 94%): on an even kind, the runs a chance move up costs. */
  strongOver6: number;
  /** The lowest weak share at the last checkpoint (the worst run's on an even kind). */
  lowestWeakShare: number;
  /** The highest judged share at the last checkpoint. */
  maxJudged: number;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

export function summariseSeeds(results: readonly SimulationResult[]): SeedsSummary {
  const last = results.map((r) => r.checkpoints.at(-1)!);
  const mins = results.map((r) => Math.min(...r.checkpoints.map((c) => c.quality)));
  return {
    runs: results.length,
    meanQuality: mean(last.map((c) => c.quality)),
    atGoal: last.filter((c) => c.quality >= 0.98).length,
    meanMin: mean(mins),
    lowestMin: Math.min(...mins),
    meanFirst: mean(results.map((r) => r.checkpoints[0]!.quality)),
    meanCost: mean(last.map((c) => c.cost)),
    meanWeakShare: mean(last.map((c) => c.weakShare)),
    strongOver6: last.filter((c) => c.weakShare < 0.94).length,
    lowestWeakShare: Math.min(...last.map((c) => c.weakShare)),
    maxJudged: Math.max(...last.map((c) => c.judgedShare)),
  };
}

/** `--seeds 1-20` as [1, ..., 20] (or one seed). */
export function seedRange(text: string): number[] {
  const match = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  if (!match) throw new Error('--seeds must read N or A-B');
  const from = Number(match[1]);
  const to = Number(match[2] ?? match[1]);
  if (to < from) throw new Error('--seeds A-B needs A <= B');
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

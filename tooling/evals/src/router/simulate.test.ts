import { describe, expect, it } from 'vitest';
import type { Item } from './data.js';
import { type SimulationSettings, simulate } from './simulate.js';

const strong = { id: 'strong', price: 10 };
const weak = { id: 'weak', price: 1 };
const settings: SimulationSettings = { strong, weak, requests: 20_000, judged: 0.2, flip: 0, tolerance: 0.05, judgePrice: 0, every: 5000, seed: 3, task: 'subject', incumbent: 'strong' };

/** `easy`: both models always right; `hard`: only the strong one is. */
const items: Item[] = Array.from({ length: 200 }, (_, i) => {
  const easy = i % 2 === 0;
  return { source: 'test', group: 'g', subject: easy ? 'easy' : 'hard', prompt: `q${i}`, correct: { strong: true, weak: easy } };
});

describe('simulate', () => {
  it('learns to send the task the weak model answers as well to it, and keeps the other on the strong model', () => {
    const result = simulate(items, settings);
    const last = result.checkpoints.at(-1)!;
    expect(result.strongAccuracy).toBe(1);
    expect(result.oracle).toEqual({ quality: 1, cost: expect.closeTo(0.55, 1) });
    expect(last.quality).toBe(1);
    // Tied pairs until the always-valid bound clears 0.45 (read as coin flips, ~1,000 ties: ~5,000 easy
    // requests at 20% judged; read as ties, far fewer); then the easy half goes to the weak model.
    expect(last.weakShare).toBeGreaterThan(0.2);
    expect(last.weakShare).toBeLessThan(0.5);
    // Served cost between ~55% and 100% of the strong model's, plus the shadow calls of the judged 20%.
    expect(last.cost).toBeGreaterThan(0.55);
    expect(last.cost).toBeLessThan(0.9);
  });

  it('spends the judged share where the choice is open (sampler unsure), never more than the share', () => {
    const result = simulate(items, { ...settings, judged: 0.05, sampler: 'unsure' });
    const uniform = simulate(items, { ...settings, judged: 0.05 });
    for (const c of result.checkpoints) expect(c.judgedShare).toBeLessThanOrEqual(0.05 + 20 / c.requests);
    expect(result.checkpoints.at(-1)!.quality).toBe(1);
    // The hard task is settled early on the strong model; the easy one gets the pairs and switches sooner.
    expect(result.checkpoints.at(-1)!.weakShare).toBeGreaterThan(uniform.checkpoints.at(-1)!.weakShare);
  });

  it('moves the prompts the router sends to the weak model up where judged pairs show the strong one better', () => {
    // Half the prompts start on the weak model (as the router's own choice); on the hard task that costs a quarter of the answers.
    const result = simulate(items, { ...settings, judged: 0.05, sampler: 'unsure', incumbent: 0.5 });
    const last = result.checkpoints.at(-1)!;
    expect(result.incumbentWeakShare).toBeGreaterThan(0.45);
    expect(last.quality).toBeGreaterThan(0.97);
    // The easy task stays on (or moves down to) the weak model: about half of the stream.
    expect(last.weakShare).toBeGreaterThan(0.4);
    expect(last.judgedShare).toBeLessThanOrEqual(0.05 + 20 / last.requests);
  });

  it('spends the pairs on the first open move and none on a settled kind while the budget is not full (sampler ordered)', () => {
    const unsure = simulate(items, { ...settings, judged: 0.05, sampler: 'unsure', incumbent: 0.5 });
    const ordered = simulate(items, { ...settings, judged: 0.05, sampler: 'ordered', incumbent: 0.5 });
    // The hard task's move up is made sooner (96.9% at 5,000 requests against 95.9%) on fewer pairs (1.5% judged against 1.7%).
    expect(ordered.checkpoints[0]!.quality).toBeGreaterThan(unsure.checkpoints[0]!.quality);
    expect(ordered.checkpoints.at(-1)!.quality).toBeGreaterThan(0.99);
    expect(ordered.checkpoints.at(-1)!.judgedShare).toBeLessThan(unsure.checkpoints.at(-1)!.judgedShare);
  });

  it("asks the sampler about the served model, as the gateway's shadow sampler does (feed served): the cautious start and the move up as when asked about the router's choice", () => {
    const base = { ...settings, judged: 0.05, sampler: 'ordered', incumbent: 0.5, cautiousStart: true } as const;
    const served = simulate(items, { ...base, feed: 'served' });
    for (const c of served.checkpoints) expect(c.judgedShare).toBeLessThanOrEqual(0.05 + 20 / c.requests);
    expect(served.checkpoints[0]!.quality).toBeGreaterThan(0.99);
    expect(served.checkpoints.at(-1)!.quality).toBeCloseTo(simulate(items, base).checkpoints.at(-1)!.quality, 2);
    // The gateway's revisits (5% of a promoted kind's choices back on the incumbent) cost the hard task's quality.
    expect(simulate(items, { ...base, feed: 'served', revisit: 0.05 }).checkpoints.at(-1)!.quality).toBeLessThan(served.checkpoints.at(-1)!.quality);
  });

  it("holds a learned move to the gateway's regression gate (gate): refused, the incumbent serves; a cautious start is not gated", () => {
    // The easy task's move down is proven on ties read as ties well before the gate's Wilson interval (ties half) clears 0.45.
    const learned = simulate(items, settings);
    const gated = simulate(items, { ...settings, gate: true });
    expect(gated.checkpoints[0]!.weakShare).toBeLessThan(learned.checkpoints[0]!.weakShare);
    expect(gated.checkpoints.at(-1)!.quality).toBe(1);
    const start = { ...settings, judged: 0.05, sampler: 'ordered', incumbent: 0.5, cautiousStart: true } as const;
    expect(simulate(items, { ...start, gate: true }).checkpoints[0]!.quality).toBeGreaterThan(0.99);
  });

  it('counts shadow and judge calls in the cost, and flipped verdicts blur what it learns', () => {
    const judgedOnly = simulate(items, { ...settings, judged: 0.05, judgePrice: 10, tolerance: 0 });
    expect(judgedOnly.checkpoints.at(-1)!.cost).toBeGreaterThan(1);
    // Coin-flip verdicts read the hard task as even: the fixed-n bound, looked at on every request, promotes it;
    // the always-valid one keeps the hard task on the strong model.
    const flipped = simulate(items, { ...settings, flip: 0.5, bound: 'wilson' });
    expect(flipped.checkpoints.at(-1)!.weakShare).toBeGreaterThan(0.5);
    expect(simulate(items, { ...settings, flip: 0.5 }).checkpoints.at(-1)!.weakShare).toBeLessThan(0.5);
  });
});

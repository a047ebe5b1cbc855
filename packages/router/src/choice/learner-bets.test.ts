import { seededRandom } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { type Verdict, createChoiceLearner } from './learner.js';

const org = 'org-a';
/** The router's cheap choice; the gateway's setting: tolerance 0.05, judge assumed wrong on 15%. */
const onCheap = { orgId: org, taskKind: 'analysis', incumbent: { id: 'cheap', cost: 1 }, candidates: [{ id: 'strong', cost: 10 }], tolerance: 0.05 };

/** Pairs until the strong model first moves the cheap choice up (wins `win`, losses `loss`, the rest ties), or Infinity within `max`. */
function pairsToMoveUp(win: number, loss: number, seed: number, max = 1500): number {
  const learner = createChoiceLearner({ judgeError: 0.15 });
  const random = seededRandom(seed);
  for (let i = 1; i <= max; i++) {
    const draw = random();
    const verdict: Verdict = draw < win ? 'candidate' : draw < win + loss ? 'incumbent' : 'tie';
    learner.recordJudgedPair({ orgId: org, taskKind: 'analysis', incumbent: 'cheap', candidate: 'strong', verdict });
    if (learner.choose(onCheap).reason === 'learned') return i;
  }
  return Number.POSITIVE_INFINITY;
}

describe("the betting bound's mixture of bets (issue 28, 2026-12-05)", () => {
  it("moves MMLU's analysis up sooner: a 0.54 win rate with 65% ties clears 0.5 in a median of fewer than 260 pairs", () => {
    // The live runs' analysis (0.547-0.553 over 296-358 pairs): with bets over (0, 1) of the largest
    // safe bet the median of these 21 streams is 311 pairs; over (0, 1/2) 217 (each as valid: alpha unchanged).
    const at = Array.from({ length: 21 }, (_, seed) => pairsToMoveUp(0.215, 0.135, seed + 1)).sort((a, b) => a - b);
    expect(at[10]).toBeLessThan(260);
  });

  it('keeps the confidence: an even kind (0.5, 65% ties) moves up in at most ~alpha of 100 streams of 2,000 pairs', () => {
    const moved = Array.from({ length: 100 }, (_, seed) => pairsToMoveUp(0.175, 0.175, seed * 7919 + 13, 2000)).filter(Number.isFinite);
    expect(moved.length).toBeLessThanOrEqual(7); // alpha 0.05 over all looks, whatever the fixed mixture (4 here; 3 with bets over (0, 1))
  });
});

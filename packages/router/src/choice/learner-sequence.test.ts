import { seededRandom } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { type ChoiceLearner, type ChoiceLearnerOptions, createChoiceLearner } from './learner.js';

const org = 'org-a';
const strong = { id: 'strong', cost: 10 };
const cheap = { id: 'cheap', cost: 1 };
/** The gateway's setting: tolerance 0.05 against a judge assumed wrong on 15% of verdicts (bar 0.465). */
const request = { orgId: org, taskKind: 'math', incumbent: strong, candidates: [cheap], tolerance: 0.05 };

/** Feeds a lucky run (`luckyWins` of the first `lucky` pairs, spread evenly), then `rest` pairs won at `rate`; the pair count at the first promotion, or undefined. */
function firstPromotion(options: ChoiceLearnerOptions, stream: { luckyWins: number; lucky: number; rest: number; rate: number; seed: number }): number | undefined {
  const learner: ChoiceLearner = createChoiceLearner({ judgeError: 0.15, ...options });
  const random = seededRandom(stream.seed);
  for (let i = 0; i < stream.lucky + stream.rest; i++) {
    const won = i < stream.lucky ? Math.floor(((i + 1) * stream.luckyWins) / stream.lucky) > Math.floor((i * stream.luckyWins) / stream.lucky) : random() < stream.rate;
    learner.recordJudgedPair({ orgId: org, taskKind: 'math', incumbent: 'strong', candidate: 'cheap', verdict: won ? 'candidate' : 'incumbent' });
    if (learner.choose(request).reason === 'learned') return i + 1;
  }
  return undefined;
}

describe('the learner under repeated looks (issue 28, seed 5 of the live run)', () => {
  it('a kind worse than the bar with an early lucky run is promoted by the fixed-n bound, not by the sequence', () => {
    // True win rate 0.42 (the bar is 0.465), but the first 40 pairs go 26-14 (0.65, as seed 5's 0.58 over 56 did by chance).
    const stream = { luckyWins: 26, lucky: 40, rest: 3000, rate: 0.42, seed: 5 };
    expect(firstPromotion({ bound: 'wilson' }, stream)).toBeLessThanOrEqual(40);
    expect(firstPromotion({}, stream)).toBeUndefined();
  });

  it('over many streams a kind just below the bar is rarely promoted by the sequence, often by the fixed-n bound', () => {
    // True win rate 0.44 against a 0.465 bar, 1,500 pairs each, every pair a look.
    const runs = Array.from({ length: 40 }, (_, seed) => ({ luckyWins: 0, lucky: 0, rest: 1500, rate: 0.44, seed: seed + 1 }));
    const promoted = (options: ChoiceLearnerOptions) => runs.filter((stream) => firstPromotion(options, stream) !== undefined).length;
    expect(promoted({ bound: 'wilson' })).toBeGreaterThanOrEqual(4);
    expect(promoted({})).toBeLessThanOrEqual(1);
  });

  it('still promotes a kind that is truly good (0.6 against a 0.465 bar) within 600 pairs', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const at = firstPromotion({}, { luckyWins: 0, lucky: 0, rest: 1000, rate: 0.6, seed });
      expect(at).toBeDefined();
      expect(at).toBeLessThanOrEqual(600);
    }
  });

  it('keeps a promotion revisitable: a share of the kind still reaches the incumbent, is judged, and a wrong promotion is undone', () => {
    let draw = 0;
    const learner = createChoiceLearner({ judgeError: 0.15, revisit: 0.05, random: () => (draw++ % 100) / 100 });
    const record = (wins: number, losses: number) => {
      for (let i = 0; i < wins + losses; i++) learner.recordJudgedPair({ orgId: org, taskKind: 'math', incumbent: 'strong', candidate: 'cheap', verdict: i < wins ? 'candidate' : 'incumbent' });
    };
    record(22, 0); // a lucky run clears even the sequence
    const choices = Array.from({ length: 1000 }, () => learner.choose(request));
    expect(choices.filter((c) => c.reason === 'learned').length).toBe(950);
    expect(choices.filter((c) => c.model === 'strong').length).toBe(50);
    expect(learner.unsure(request)).toBe(true); // the revisited requests are worth judging
    expect(createChoiceLearner({ judgeError: 0.15 }).unsure(request)).toBe(true); // (nothing recorded: open anyway)
    // What the revisits judge: the cheap model loses 60% of the time; the promotion is undone.
    record(40, 60);
    expect(learner.choose(request).model).toBe('strong');
  });
});

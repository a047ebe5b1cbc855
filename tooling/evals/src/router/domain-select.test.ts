import { describe, expect, it } from 'vitest';
import { chooseThreshold } from './domain-select.js';

describe('chooseThreshold', () => {
  it('takes the best mean margin among candidates that leave no validation set below random by more than the slack', () => {
    const sets = [
      { name: 'a', margins: [0.1, 0.08, 0.02], noise: 0.01 },
      { name: 'b', margins: [-0.05, 0.03, 0.01], noise: 0.01 },
    ];
    // Candidate 0 has the best mean (0.025) but inverts b: candidate 1 (0.055) wins.
    expect(chooseThreshold(sets)).toBe(1);
    expect(chooseThreshold(sets, 0.1)).toBe(1);
    expect(chooseThreshold([{ name: 'a', margins: [0.1, 0.02], noise: 0.01 }])).toBe(0);
  });

  it('does not read sets whose random APGR is too noisy to rank thresholds', () => {
    expect(chooseThreshold([{ name: 'a', margins: [0.05, 0.04], noise: 0.01 }, { name: 'claude', margins: [-0.3, 0.2], noise: 0.28 }])).toBe(0);
  });

  it('falls back to the strictest candidate when every one inverts a set', () => {
    expect(chooseThreshold([{ name: 'a', margins: [-0.2, -0.1, -0.05], noise: 0.01 }])).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import { padBatch, planRuns } from './token-batches.js';

describe('token batches', () => {
  it('pads rows to the longest, masking the padding', () => {
    const batch = padBatch([[101, 7, 102], [101, 102]]);
    expect(batch).toMatchObject({ count: 2, sequence: 3 });
    expect(Array.from(batch.inputIds, Number)).toEqual([101, 7, 102, 101, 102, 0]);
    expect(Array.from(batch.attentionMask, Number)).toEqual([1, 1, 1, 1, 1, 0]);
  });

  it('groups rows by length within the padded-token budget, each row exactly once', () => {
    const lengths = [256, 12, 14, 256, 10, 200, 13];
    const runs = planRuns(lengths, 512);
    expect(runs.flat().sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const run of runs) expect(run.length * Math.max(...run.map((i) => lengths[i]!))).toBeLessThanOrEqual(512);
    // The four short texts share one run instead of being padded to 256.
    expect(runs[0]!.sort()).toEqual([1, 2, 4, 6]);
  });

  it('gives a row longer than the budget a run of its own', () => {
    expect(planRuns([300, 300], 256)).toEqual([[0], [1]]);
  });
});

import { describe, expect, it } from 'vitest';
import { summariseScope } from './admin-routing-diversity.js';

const counted = (models: readonly string[]) => {
  const counts = new Map<string, number>();
  for (const model of models) counts.set(model, (counts.get(model) ?? 0) + 1);
  return counts;
};

describe('summariseScope', () => {
  const thresholds = { entropyFloorBits: 1, armShareCap: 0.8, minDecisions: 3 };

  it('gives log2(n) bits and normalised entropy 1 for n models used evenly', () => {
    const s = summariseScope('fleet', counted(['c', 'a', 'b', 'b', 'a', 'c']), thresholds);
    expect(s.entropy_bits).toBeCloseTo(Math.log2(3), 12);
    expect(s.normalized_entropy).toBeCloseTo(1, 12);
    expect(s.models.map((m) => m.model)).toEqual(['a', 'b', 'c']);
    expect(s.alarms).toEqual([]);
  });

  it('alarms at the cap only when the top share exceeds it', () => {
    expect(summariseScope('fleet', counted(['a', 'a', 'a', 'a', 'b']), thresholds).alarms).toEqual([{ reason: 'entropy_below_floor', value: expect.closeTo(0.7219, 4), threshold: 1 }]);
    expect(summariseScope('fleet', counted(['a', 'a', 'a', 'a', 'a', 'b']), thresholds).alarms.map((a) => a.reason)).toEqual(['entropy_below_floor', 'arm_share_above_cap']);
  });
});

import { describe, expect, it } from 'vitest';
import { extractFeatures, toVector } from './features.js';
import { createLinUcbPolicy, PolicySnapshotError } from './policy.js';
import { mergePolicySnapshots } from './policy-merge.js';
import { ask } from './test/fixture-catalog.js';

const x = (text: string) => toVector(extractFeatures(ask(text)));

describe('mergePolicySnapshots', () => {
  it('adds what one instance learned since its base to the shared state: arm counts, per-model means, success samples', () => {
    const base = createLinUcbPolicy().serialize();
    const shared = createLinUcbPolicy();
    for (let i = 0; i < 4; i++) shared.update({ taskFamily: 'code', vector: x(`fix bug ${i}`), tier: 'T2', modelId: 'm', prior: 0.5, reward: 1 });
    const local = createLinUcbPolicy();
    for (let i = 0; i < 2; i++) local.update({ taskFamily: 'math', vector: x(`integrate ${i}`), tier: 'T2', modelId: 'm', prior: 0.5, reward: 0 });
    local.update({ taskFamily: 'math', vector: x('solve it'), tier: 'T1', modelId: 'k', prior: 0.5, reward: 1 });

    const merged = mergePolicySnapshots(shared.serialize(), base, local.serialize());
    expect(merged.arms.map((arm) => arm.n)).toEqual([1, 6, 0]);
    expect(merged.success.n).toEqual([1, 6, 0]);
    // m: 4 residuals of +0.5-ish and 2 of -0.5-ish, merged through their sums and counts.
    const m = merged.models['m']!;
    const [sm, lm] = [shared.serialize().models['m']!, local.serialize().models['m']!];
    expect(m.n).toBe(6);
    expect(m.mean).toBeCloseTo((sm.n * sm.mean + lm.n * lm.mean) / 6, 12);
    expect(merged.models['k']).toEqual(local.serialize().models['k']);
    // The merged state loads, and nothing learned since the base leaves the shared state as it was.
    expect(() => createLinUcbPolicy().load(merged)).not.toThrow();
    const unchanged = mergePolicySnapshots(shared.serialize(), base, base);
    for (const [t, arm] of unchanged.arms.entries()) {
      for (const [i, v] of arm.aInv.entries()) expect(v).toBeCloseTo(shared.serialize().arms[t]!.aInv[i]!, 9);
    }
  });

  it('refuses snapshots of another shape (another build)', () => {
    const base = createLinUcbPolicy().serialize();
    const other = { ...base, context: base.context + 1 };
    expect(() => mergePolicySnapshots(other, base, base)).toThrow(PolicySnapshotError);
    const broken = { ...base, arms: base.arms.map((arm) => ({ ...arm, b: arm.b.slice(1) })) };
    expect(() => mergePolicySnapshots(base, broken, base)).toThrow(PolicySnapshotError);
  });
});

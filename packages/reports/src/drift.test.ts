import { describe, expect, it } from 'vitest';
import { type DimensionDrift, type DriftDimension, type DriftSettings, driftDimensions, driftFeed, type MixRow } from './drift.js';

interface Decision {
  org?: string;
  task_family?: string | null;
  complexity?: string | null;
  model?: string;
  tier?: string | null;
  outcome?: string;
  latency?: number;
}

/** What the decision log's tally returns for these decisions. */
function tally(decisions: readonly Decision[]): MixRow[] {
  const rows = new Map<string, MixRow>();
  for (const d of decisions) {
    const full = { task_family: 'chat', complexity: 'standard', model: 'm/a', tier: 'T2', outcome: 'ok', ...d };
    for (const dimension of driftDimensions) {
      const value = full[dimension];
      const key = JSON.stringify([d.org ?? 'org-1', dimension, value]);
      const row = rows.get(key) ?? { orgId: d.org ?? 'org-1', dimension, value, decisions: 0, succeeded: 0, failed: 0, latencySumMs: 0 };
      row.decisions += 1;
      if (full.outcome === 'ok') {
        row.succeeded += 1;
        row.latencySumMs += d.latency ?? 100;
      } else if (full.outcome !== 'client_closed') row.failed += 1;
      rows.set(key, row);
    }
  }
  return [...rows.values()];
}

const repeat = (n: number, d: Decision = {}) => Array.from({ length: n }, () => d);
const settings: DriftSettings = { jsThresholdBits: 0.1, minDecisions: 10, successRateDrop: 0.05, latencyIncrease: 0.5, topMovers: 3 };
const dimension = (entry: { dimensions: DimensionDrift[] }, name: DriftDimension) => entry.dimensions.find((d) => d.dimension === name)!;

describe('driftFeed', () => {
  it('reports no drift for an unchanged mix', () => {
    const mix = [...repeat(10, { task_family: 'code' }), ...repeat(10, { task_family: 'chat' })];
    const [fleet] = driftFeed(tally(mix), tally(mix), settings);
    expect(fleet).toMatchObject({ scope: 'fleet', decisions: { before: 20, after: 20 }, drifted: false, flags: [] });
    for (const d of fleet!.dimensions) expect(d).toMatchObject({ js_divergence_bits: 0, drifted: false, top_movers: [] });
    expect(fleet!.success_rate).toEqual({ before: 1, after: 1, delta: 0 });
    expect(fleet!.mean_latency_ms).toEqual({ before: 100, after: 100, delta: 0 });
  });

  it('flags a shifted dimension with its divergence and top movers', () => {
    const before = [...repeat(15, { model: 'm/a' }), ...repeat(5, { model: 'm/b' })];
    const after = [...repeat(5, { model: 'm/a' }), ...repeat(15, { model: 'm/c' })];
    const [fleet] = driftFeed(tally(before), tally(after), settings);
    const model = dimension(fleet!, 'model');
    expect(model.drifted).toBe(true);
    expect(model.js_divergence_bits).toBeGreaterThan(0.5);
    expect(model.top_movers).toEqual([
      { value: 'm/c', share_before: 0, share_after: 0.75, delta: 0.75 },
      { value: 'm/a', share_before: 0.75, share_after: 0.25, delta: -0.5 },
      { value: 'm/b', share_before: 0.25, share_after: 0, delta: -0.25 },
    ]);
    expect(dimension(fleet!, 'task_family')).toMatchObject({ js_divergence_bits: 0, drifted: false });
    expect(fleet!.flags).toEqual([{ reason: 'distribution_shift', dimension: 'model', value: model.js_divergence_bits, threshold: 0.1 }]);
    expect(fleet!.drifted).toBe(true);
  });

  it('keeps at most topMovers movers, and counts missing values (null) as a value', () => {
    const before = repeat(12, { complexity: null });
    const after = [...repeat(3, { complexity: 'trivial' }), ...repeat(3, { complexity: 'standard' }), ...repeat(3, { complexity: 'complex' }), ...repeat(3, { complexity: 'expert' })];
    const complexity = dimension(driftFeed(tally(before), tally(after), settings)[0]!, 'complexity');
    expect(complexity.js_divergence_bits).toBe(1);
    expect(complexity.top_movers).toHaveLength(3);
    expect(complexity.top_movers[0]).toEqual({ value: null, share_before: 1, share_after: 0, delta: -1 });
  });

  it('flags a success-rate drop and a latency rise beyond their thresholds', () => {
    const before = [...repeat(19, { latency: 100 }), ...repeat(1, { outcome: 'error' })];
    const after = [...repeat(16, { latency: 200 }), ...repeat(4, { outcome: 'error' })];
    const [fleet] = driftFeed(tally(before), tally(after), settings);
    expect(fleet!.success_rate.before).toBeCloseTo(0.95, 12);
    expect(fleet!.success_rate.after).toBeCloseTo(0.8, 12);
    expect(fleet!.success_rate.delta).toBeCloseTo(-0.15, 12);
    expect(fleet!.mean_latency_ms).toEqual({ before: 100, after: 200, delta: 100 });
    // The outcome mix moved too, but by less than the divergence threshold.
    expect(dimension(fleet!, 'outcome')).toMatchObject({ drifted: false });
    expect(fleet!.flags.map((f) => f.reason)).toEqual(['success_rate_drop', 'latency_increase']);
    expect(fleet!.flags[0]!.value).toBeCloseTo(0.15, 12);
    expect(fleet!.flags[1]).toEqual({ reason: 'latency_increase', value: 1, threshold: 0.5 });
  });

  it('leaves client_closed out of the success rate', () => {
    const mix = [...repeat(10), ...repeat(10, { outcome: 'client_closed' })];
    expect(driftFeed(tally(mix), tally(mix), settings)[0]!.success_rate.after).toBe(1);
  });

  it('flags nothing below the minimum decision count in either window, but still measures', () => {
    const [fleet] = driftFeed(tally(repeat(9, { model: 'm/a' })), tally(repeat(50, { model: 'm/b' })), settings);
    expect(dimension(fleet!, 'model')).toMatchObject({ js_divergence_bits: 1, drifted: false });
    expect(fleet).toMatchObject({ drifted: false, flags: [] });
  });

  it('has null divergence and deltas for an empty window', () => {
    const [fleet] = driftFeed([], tally(repeat(20)), settings);
    expect(fleet!.decisions).toEqual({ before: 0, after: 20 });
    expect(fleet!.dimensions.every((d) => d.js_divergence_bits === null)).toBe(true);
    expect(fleet!.success_rate).toEqual({ before: null, after: 1, delta: null });
  });

  it('puts the fleet first, then tenants by current then previous decisions', () => {
    const before = tally([...repeat(3, { org: 'c' }), ...repeat(5, { org: 'b' })]);
    const after = tally([...repeat(2, { org: 'a' }), ...repeat(2, { org: 'b' }), ...repeat(7, { org: 'd' })]);
    const feed = driftFeed(before, after, settings);
    expect(feed.map((e) => [e.scope, e.decisions.before, e.decisions.after])).toEqual([
      ['fleet', 8, 11],
      ['tenant:d', 0, 7],
      ['tenant:b', 5, 2],
      ['tenant:a', 0, 2],
      ['tenant:c', 3, 0],
    ]);
  });

  it('answers one tenant scope with tenantId, also without decisions', () => {
    expect(driftFeed([], [], settings, 'org-9')).toEqual([expect.objectContaining({ scope: 'tenant:org-9', decisions: { before: 0, after: 0 }, drifted: false })]);
  });
});

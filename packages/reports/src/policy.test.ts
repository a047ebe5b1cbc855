import { describe, expect, it } from 'vitest';
import { type ConstraintGroup, judge, policyCompliance } from './policy.js';
import { testCatalog } from './test-models.js';

const catalog = testCatalog();
let n = 0;
const group = (constraints: Record<string, unknown>, overrides: Partial<ConstraintGroup> = {}): ConstraintGroup => {
  n += 1;
  return { constraints, notApplied: null, model: 'acme/mid', tier: 'T2', lane: 'smart', decisions: 1, sampleRequestIds: [`req_${n}`], newestAt: n, ...overrides };
};
const verdicts = (g: ConstraintGroup) => Object.fromEntries(judge(g, catalog));

describe('judge', () => {
  it('max_tier N admits tiers N..3', () => {
    expect(verdicts(group({ maxTier: 2 }, { tier: 'T2' }))).toEqual({ max_tier: 'compliant' });
    expect(verdicts(group({ maxTier: 2 }, { tier: 'T3' }))).toEqual({ max_tier: 'compliant' });
    expect(verdicts(group({ maxTier: 2 }, { tier: 'T1', model: 'acme/big' }))).toEqual({ max_tier: 'violation' });
    expect(verdicts(group({ maxTier: 1 }, { tier: 'T1' }))).toEqual({ max_tier: 'compliant' });
  });

  it('takes the tier from the catalog when the row has none, unknown when neither has it', () => {
    expect(verdicts(group({ maxTier: 3 }, { tier: null, model: 'libre/small' }))).toEqual({ max_tier: 'compliant' });
    expect(verdicts(group({ maxTier: 3 }, { tier: null, model: 'gone/model' }))).toEqual({ max_tier: 'unknown' });
    expect(verdicts(group({ maxTier: 'lots' }))).toEqual({ max_tier: 'unknown' });
  });

  it('force_tier accepts the spellings routing accepts; it supersedes max_tier', () => {
    expect(verdicts(group({ forceTier: 'tier-2' }))).toEqual({ force_tier: 'compliant' });
    expect(verdicts(group({ forceTier: 'T1' }))).toEqual({ force_tier: 'violation' });
    expect(verdicts(group({ forceTier: 'T1', maxTier: 3 }, { tier: 'T1' }))).toEqual({ force_tier: 'compliant', max_tier: 'superseded' });
  });

  it('force_model is honoured by the model itself, its bare name, or its family on another provider', () => {
    expect(verdicts(group({ forceModel: 'acme/big' }, { model: 'acme/big', tier: 'T1' }))).toEqual({ force_model: 'compliant' });
    expect(verdicts(group({ forceModel: 'big-hosted' }, { model: 'cloud/big', tier: 'T1' }))).toEqual({ force_model: 'compliant' });
    expect(verdicts(group({ forceModel: 'acme/big' }, { model: 'cloud/big', tier: 'T1' }))).toEqual({ force_model: 'compliant' });
    expect(verdicts(group({ forceModel: 'acme/big' }, { model: 'acme/mid' }))).toEqual({ force_model: 'violation' });
    expect(verdicts(group({ forceModel: 'gone/model' }, { model: 'acme/mid' }))).toEqual({ force_model: 'unknown' });
  });

  it('free_models_only (flag or mode) needs a free model', () => {
    expect(verdicts(group({ freeModelsOnly: true }, { model: 'libre/small', tier: 'T3' }))).toEqual({ free_models_only: 'compliant' });
    expect(verdicts(group({ mode: 'free_models_only' }, { model: 'acme/mid' }))).toEqual({ free_models_only: 'violation' });
    expect(verdicts(group({ freeModelsOnly: true }, { model: 'gone/model' }))).toEqual({ free_models_only: 'unknown' });
  });

  it('force_provider is compliant when reported as not applied', () => {
    expect(verdicts(group({ forceProvider: 'cloud' }, { notApplied: ['routing_override.force_provider'] }))).toEqual({ force_provider: 'compliant' });
    expect(verdicts(group({ forceProvider: 'cloud' }, { notApplied: null }))).toEqual({ force_provider: 'violation' });
  });

  it('force_lane compares the lane; soft hints are no constraint', () => {
    expect(verdicts(group({ forceLane: 'turbo' }, { lane: 'turbo' }))).toEqual({ force_lane: 'compliant' });
    expect(verdicts(group({ forceLane: 'turbo' }, { lane: 'smart' }))).toEqual({ force_lane: 'violation' });
    expect(verdicts(group({ mode: 'balanced', taskComplexity: 'expert' }))).toEqual({});
  });
});

describe('policyCompliance', () => {
  it('counts decisions per constraint and overall, with violating request ids', () => {
    const groups = [
      group({ maxTier: 2 }, { decisions: 5, sampleRequestIds: ['ok1', 'ok2'] }),
      group({ maxTier: 2 }, { decisions: 3, model: 'acme/big', tier: 'T1', sampleRequestIds: ['old1', 'old2'], newestAt: 1 }),
      group({ maxTier: 3, forceModel: 'acme/big' }, { decisions: 2, model: 'cloud/big', tier: 'T1', sampleRequestIds: ['new1', 'new2'], newestAt: 1000 }),
      group({ freeModelsOnly: true }, { decisions: 4, model: 'gone/model', sampleRequestIds: ['u1'] }),
      group({ mode: 'fast' }, { decisions: 7 }),
    ];
    const report = policyCompliance(groups, catalog, { decisions: 30, sampleSize: 3 });
    expect(report).toMatchObject({ decisions: 30, constrained_decisions: 14, compliant_decisions: 5, violating_decisions: 5, unknown_decisions: 4, compliance_rate: 0.5 });
    const maxTier = report.constraints.find((c) => c.constraint === 'max_tier');
    expect(maxTier).toEqual({
      constraint: 'max_tier',
      decisions: 10,
      compliant: 5,
      violations: 5,
      unknown: 0,
      superseded: 0,
      compliance_rate: 0.5,
      violating_request_ids: ['new1', 'new2', 'old1'],
    });
    expect(report.constraints.find((c) => c.constraint === 'force_model')).toMatchObject({ decisions: 2, compliant: 2, violations: 0, compliance_rate: 1, violating_request_ids: [] });
    expect(report.constraints.find((c) => c.constraint === 'free_models_only')).toMatchObject({ decisions: 4, unknown: 4, compliance_rate: null });
    expect(report.constraints.map((c) => c.constraint)).toEqual(['max_tier', 'force_tier', 'force_lane', 'force_model', 'free_models_only', 'force_provider']);
  });

  it('has null rates without constrained decisions', () => {
    const report = policyCompliance([], catalog, { decisions: 12, sampleSize: 10 });
    expect(report).toMatchObject({ decisions: 12, constrained_decisions: 0, compliance_rate: null });
    expect(report.constraints.every((c) => c.decisions === 0 && c.compliance_rate === null)).toBe(true);
  });
});

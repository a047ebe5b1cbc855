import { describe, expect, it } from 'vitest';
import { DEFAULT_JUDGE_ERROR_RATE, MIN_AGREEMENT_PAIRS, judgeErrorRate } from './judge-error.js';
import { SHADOW_SETTINGS_KEY, readShadowSettings } from './settings.js';

describe('judgeErrorRate', () => {
  it("takes the organisation's setting, else feedback's disagreement once there is enough of it, else the default", () => {
    expect(judgeErrorRate(0.05, { decisive: 100, disagree: 40 })).toEqual({ rate: 0.05, source: 'setting', pairs: 0 });
    expect(judgeErrorRate(undefined, { decisive: 100, disagree: 12 })).toEqual({ rate: 0.12, source: 'feedback', pairs: 100 });
    expect(judgeErrorRate(undefined, { decisive: 100, disagree: 80 })).toEqual({ rate: 0.45, source: 'feedback', pairs: 100 });
    expect(judgeErrorRate(undefined, { decisive: MIN_AGREEMENT_PAIRS - 1, disagree: 0 })).toEqual({ rate: DEFAULT_JUDGE_ERROR_RATE, source: 'default', pairs: 0 });
    expect(judgeErrorRate(undefined, undefined)).toEqual({ rate: DEFAULT_JUDGE_ERROR_RATE, source: 'default', pairs: 0 });
  });

  it('is read with the stored settings (a document stored before the setting existed estimates it)', () => {
    const stored = { enabled: true, sample_rate: 0.05, candidate_models: null, judge_model: 'm/judge', daily_budget_usd: 1 };
    expect(readShadowSettings({ [SHADOW_SETTINGS_KEY]: stored })).toMatchObject({ judgeErrorRate: undefined, judgeError: { source: 'default' } });
    expect(readShadowSettings({ [SHADOW_SETTINGS_KEY]: stored }, { decisive: 50, disagree: 5 })).toMatchObject({ judgeError: { rate: 0.1, source: 'feedback' } });
    expect(readShadowSettings({ [SHADOW_SETTINGS_KEY]: { ...stored, judge_error_rate: 0 } })).toMatchObject({ judgeErrorRate: 0, judgeError: { rate: 0, source: 'setting' } });
    expect(readShadowSettings({ [SHADOW_SETTINGS_KEY]: { ...stored, judge_error_rate: 0.6 } })).toBeUndefined();
  });
});

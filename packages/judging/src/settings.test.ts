import { describe, expect, it } from 'vitest';
import { DEFAULT_CAUTIOUS_START, SHADOW_SETTINGS_KEY, readShadowSettings } from './settings.js';

describe('readShadowSettings: cautious_start', () => {
  const stored = { enabled: true, sample_rate: 0.05, candidate_models: null, judge_model: 'm/judge', daily_budget_usd: 1 };

  it('reads a document stored before the setting existed, and an organisation that never set shadow judging, as on', () => {
    expect(DEFAULT_CAUTIOUS_START).toBe(true);
    expect(readShadowSettings({ [SHADOW_SETTINGS_KEY]: stored })?.cautiousStart).toBe(true);
    expect(readShadowSettings({ [SHADOW_SETTINGS_KEY]: { ...stored, cautious_start: false } })?.cautiousStart).toBe(false);
    expect(readShadowSettings({ [SHADOW_SETTINGS_KEY]: { ...stored, enabled: false, cautious_start: false } })?.cautiousStart).toBe(false);
  });

  it('refuses a stored value that is not a boolean (the document reads as unset)', () => {
    expect(readShadowSettings({ [SHADOW_SETTINGS_KEY]: { ...stored, cautious_start: 'false' } })).toBeUndefined();
    expect(readShadowSettings({ [SHADOW_SETTINGS_KEY]: { ...stored, cautious_start: null } })).toBeUndefined();
  });
});

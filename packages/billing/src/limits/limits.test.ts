import type { Caller, Organization } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPLETION_ESTIMATE, callerLimits, completionEstimate } from './limits.js';

const org: Organization = { id: 'o', name: 'acme', plan: 'free', rpmLimit: 100, tpmLimit: null, monthlyBudgetUsd: 5, tokenQuota: null, defaultIntelligenceMode: null, createdAt: new Date(0) };
const caller = (keyLimits?: Caller['keyLimits']): Caller => ({ keyId: 'k', keyPrefix: 'sk-svc-', org, scopes: new Set(), ...(keyLimits ? { keyLimits } : {}) });

describe('callerLimits', () => {
  it('is the organisation’s limits plus the key’s own per-minute limits', () => {
    expect(callerLimits(caller())).toEqual({ rpm: 100, tpm: null, monthlyBudgetUsd: 5, tokenQuota: null });
    expect(callerLimits(caller({ rpm: 2, tpm: null, monthlyBudgetUsd: 1 }))).toEqual({ rpm: 100, tpm: null, keyRpm: 2, keyTpm: null, keyMonthlyBudgetUsd: 1, monthlyBudgetUsd: 5, tokenQuota: null });
  });
});

describe('completionEstimate', () => {
  const none = { rpm: null, tpm: null, monthlyBudgetUsd: null, tokenQuota: null };
  it('is max_tokens when the request sets it, else 1,000 within what the tightest TPM limit leaves after the prompt', () => {
    expect(completionEstimate(none, 5, 300)).toBe(300);
    expect(completionEstimate({ ...none, tpm: 1000 }, 5, 3000)).toBe(3000);
    expect(completionEstimate(none, 5, undefined)).toBe(DEFAULT_COMPLETION_ESTIMATE);
    expect(completionEstimate({ ...none, tpm: 1000 }, 5, undefined)).toBe(995);
    expect(completionEstimate({ ...none, tpm: 100_000, keyTpm: 400 }, 50, undefined)).toBe(350);
    expect(completionEstimate({ ...none, tpm: 10 }, 50, undefined)).toBe(1);
  });
});

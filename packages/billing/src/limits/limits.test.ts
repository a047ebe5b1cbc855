import type { Caller, Organization } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { callerLimits } from './limits.js';

const org: Organization = { id: 'o', name: 'acme', plan: 'free', rpmLimit: 100, tpmLimit: null, monthlyBudgetUsd: 5, tokenQuota: null, defaultIntelligenceMode: null, createdAt: new Date(0) };
const caller = (keyLimits?: Caller['keyLimits']): Caller => ({ keyId: 'k', keyPrefix: 'sk-svc-', org, scopes: new Set(), ...(keyLimits ? { keyLimits } : {}) });

describe('callerLimits', () => {
  it('is the organisation’s limits plus the key’s own per-minute limits', () => {
    expect(callerLimits(caller())).toEqual({ rpm: 100, tpm: null, monthlyBudgetUsd: 5, tokenQuota: null });
    expect(callerLimits(caller({ rpm: 2, tpm: null, monthlyBudgetUsd: 1 }))).toEqual({ rpm: 100, tpm: null, keyRpm: 2, keyTpm: null, keyMonthlyBudgetUsd: 1, monthlyBudgetUsd: 5, tokenQuota: null });
  });
});

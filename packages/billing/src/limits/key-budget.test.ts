import { createMemoryKv } from '@svc/kv';
import { describe, expect, it } from 'vitest';
import type { CalendarMonth } from './calendar-month.js';
import { Limiter } from './limiter.js';
import type { AdmitRequest, LedgerMonth } from './limits.js';
import { fakeClock, limits } from './test-support.js';

const orgId = 'org_1';

function setup(keyLedger: Record<string, number> = {}) {
  const clock = fakeClock('2026-03-10T12:00:00Z');
  const kv = createMemoryKv({ now: clock.now });
  const keyLoads: string[] = [];
  const orgLoads: string[] = [];
  const limiter = new Limiter({
    kv,
    now: clock.now,
    loadMonth: async (org: string, month: CalendarMonth): Promise<LedgerMonth> => {
      orgLoads.push(`${org} ${month.id}`);
      return { spentUsd: 0, tokens: 0 };
    },
    loadKeyMonth: async (org: string, keyId: string, month: CalendarMonth): Promise<LedgerMonth> => {
      keyLoads.push(`${org} ${keyId} ${month.id}`);
      return { spentUsd: keyLedger[keyId] ?? 0, tokens: 0 };
    },
  });
  return { limiter, keyLoads, orgLoads };
}

const request = (keyId: string, keyMonthlyBudgetUsd: number | null, estimatedCostUsd: number, monthlyBudgetUsd: number | null = 100): AdmitRequest => ({
  orgId,
  keyId,
  limits: limits({ monthlyBudgetUsd, keyMonthlyBudgetUsd }),
  estimatedTokens: 10,
  estimatedCostUsd,
});

describe('an API key’s own monthly budget', () => {
  it('refuses the key with 402 once its budget is spent, while the organisation’s other keys go on', async () => {
    const { limiter } = setup();
    const first = await limiter.admit(request('key_batch', 1, 0.6));
    await first.settle({ actualTokens: 10, actualCostUsd: 0.6 });
    const refused = limiter.admit(request('key_batch', 1, 0.5));
    await expect(refused).rejects.toMatchObject({ status: 402, type: 'billing_error', code: 'budget_exceeded' });
    await expect(refused).rejects.toThrow(/reserved maximum, \$0\.50 .* does not fit the \$0\.40 left of the monthly budget of this API key \(\$1\.00/);
    // Within what is left, the key is still served; the other key has the organisation's room.
    await (await limiter.admit(request('key_batch', 1, 0.3))).settle({ actualTokens: 10, actualCostUsd: 0.3 });
    await (await limiter.admit(request('key_app', null, 5))).settle({ actualTokens: 10, actualCostUsd: 5 });
    expect(await limiter.spend({ id: orgId, monthlyBudgetUsd: 100, tokenQuota: null })).toMatchObject({ spentUsd: 5.9, reservedUsd: 0 });
  });

  it('holds in-flight requests against the key’s budget and frees what they did not spend', async () => {
    const { limiter } = setup();
    const held = await limiter.admit(request('key_batch', 1, 0.8));
    await expect(limiter.admit(request('key_batch', 1, 0.3))).rejects.toMatchObject({ code: 'budget_exceeded' });
    await held.settle({ actualTokens: 10, actualCostUsd: 0.1 });
    await (await limiter.admit(request('key_batch', 1, 0.8))).release();
  });

  it('applies on top of the organisation’s budget, either refusing', async () => {
    const { limiter } = setup();
    // Nothing spent yet: it is the request's reserved maximum that does not fit, not an exceeded budget.
    await expect(limiter.admit(request('key_batch', 10, 2, 1))).rejects.toThrow(/^This request's reserved maximum, \$2\.00 .* left of the monthly budget \(\$1\.00 for \d{4}-\d{2}, \$0\.00 spent/);
    await expect(limiter.admit(request('key_batch', 1, 2, 10))).rejects.toThrow(/budget of this API key/);
  });

  it('starts the key’s month from the ledger, once per key, without reading the organisation’s month again', async () => {
    const { limiter, keyLoads, orgLoads } = setup({ key_batch: 0.95 });
    await (await limiter.admit(request('key_app', null, 0.01))).release(); // seeds the organisation's month
    await expect(limiter.admit(request('key_batch', 1, 0.1))).rejects.toMatchObject({ code: 'budget_exceeded' });
    await (await limiter.admit(request('key_batch', 1, 0.05))).settle({ actualTokens: 1, actualCostUsd: 0.05 });
    await expect(limiter.admit(request('key_batch', 1, 0.01))).rejects.toMatchObject({ code: 'budget_exceeded' });
    expect(keyLoads).toEqual(['org_1 key_batch 2026-03']);
    expect(orgLoads).toEqual(['org_1 2026-03']);
  });
});

describe('keySpend', () => {
  it('reports the key’s settled and held spend from the Kv, and the ledger’s figure for a month the Kv has not seen', async () => {
    const { limiter } = setup({ key_old: 0.42 });
    const key = { orgId, id: 'key_batch', monthlyBudgetUsd: 1 };
    await (await limiter.admit(request('key_batch', 1, 0.3))).settle({ actualTokens: 10, actualCostUsd: 0.2 });
    const held = await limiter.admit(request('key_batch', 1, 0.5));
    expect(await limiter.keySpend(key)).toEqual({ month: '2026-03', spentUsd: 0.2, reservedUsd: 0.5, budgetUsd: 1 });
    await held.release();
    expect(await limiter.keySpend(key)).toMatchObject({ spentUsd: 0.2, reservedUsd: 0 });
    expect(await limiter.keySpend({ orgId, id: 'key_old', monthlyBudgetUsd: null })).toEqual({ month: '2026-03', spentUsd: 0.42, reservedUsd: 0, budgetUsd: null });
  });
});

import { createMemoryKv } from '@svc/kv';
import { describe, expect, it } from 'vitest';
import type { CalendarMonth } from './calendar-month.js';
import { Limiter } from './limiter.js';
import type { AdmitRequest, LedgerMonth } from './limits.js';
import { fakeClock, limits } from './test-support.js';

const org = { id: 'org_1', monthlyBudgetUsd: 1, tokenQuota: null };
const budget = limits({ monthlyBudgetUsd: 1 });

function request(estimatedCostUsd: number): AdmitRequest {
  return { orgId: org.id, keyId: 'key_1', limits: budget, estimatedTokens: 10, estimatedCostUsd };
}

function setup(iso: string, ledger: Record<string, LedgerMonth> = {}) {
  const clock = fakeClock(iso);
  const kv = createMemoryKv({ now: clock.now });
  const loads: string[] = [];
  const loadMonth = async (orgId: string, month: CalendarMonth): Promise<LedgerMonth> => {
    loads.push(`${orgId} ${month.id} ${month.start.toISOString()}`);
    return ledger[month.id] ?? { spentUsd: 0, tokens: 0 };
  };
  const limiter = new Limiter({ kv, now: clock.now, loadMonth });
  return { clock, kv, limiter, loads };
}

describe('month counters', () => {
  it('start a new budget at the first request of each UTC month', async () => {
    const { clock, limiter, loads } = setup('2025-01-31T23:58:00Z');
    const spend = await limiter.admit(request(1));
    await spend.settle({ actualTokens: 10, actualCostUsd: 1 });
    await expect(limiter.admit(request(0.01))).rejects.toMatchObject({ status: 402 });

    clock.advance(2 * 60_000);
    const february = await limiter.admit(request(0.5));
    await february.settle({ actualTokens: 10, actualCostUsd: 0.25 });
    expect(await limiter.spend(org)).toMatchObject({ month: '2025-02', spentUsd: 0.25 });
    expect(await limiter.spend(org, '2025-01')).toMatchObject({ month: '2025-01', spentUsd: 1 });
    expect(loads).toEqual(['org_1 2025-01 2025-01-01T00:00:00.000Z', 'org_1 2025-02 2025-02-01T00:00:00.000Z']);
  });

  it('seed a missing month from the ledger, once', async () => {
    const { limiter, loads } = setup('2025-03-10T08:00:00Z', { '2025-03': { spentUsd: 0.8, tokens: 5000 } });
    await expect(limiter.admit(request(0.3))).rejects.toMatchObject({ status: 402 });
    const fits = await limiter.admit(request(0.2));
    await fits.settle({ actualTokens: 10, actualCostUsd: 0.1 });
    expect(await limiter.spend(org)).toMatchObject({ spentUsd: 0.9, tokens: 5010 });
    expect(loads).toHaveLength(1);
  });

  it('read the ledger once for a burst of first requests', async () => {
    const { limiter, loads } = setup('2025-03-10T08:00:00Z', { '2025-03': { spentUsd: 0.5, tokens: 0 } });
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => limiter.admit(request(0.1))));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    expect(loads).toHaveLength(1);
  });

  it('seed() sets a month only when the Kv has none (the running counters win)', async () => {
    const { limiter } = setup('2025-03-10T08:00:00Z');
    expect(await limiter.seed(org.id, '2025-03', 0.7, 700)).toBe(true);
    expect(await limiter.seed(org.id, '2025-03', 0.1, 100)).toBe(false);
    expect(await limiter.spend(org)).toMatchObject({ spentUsd: 0.7, tokens: 700 });
    await expect(limiter.admit(request(0.4))).rejects.toMatchObject({ code: 'budget_exceeded' });
    // A month whose counters would already have expired is not seeded.
    expect(await limiter.seed(org.id, '2024-01', 1, 1)).toBe(false);
  });

  it('report the ledger for an organisation the Kv does not track', async () => {
    const { limiter } = setup('2025-03-10T08:00:00Z', { '2025-03': { spentUsd: 12.5, tokens: 4000 } });
    const unbudgeted = { id: 'org_2', monthlyBudgetUsd: null, tokenQuota: null };
    expect(await limiter.spend(unbudgeted)).toEqual({
      month: '2025-03',
      spentUsd: 12.5,
      reservedUsd: 0,
      tokens: 4000,
      reservedTokens: 0,
      budgetUsd: null,
      tokenQuota: null,
    });
  });

  it('expire after the retention that follows their month', async () => {
    const { clock, kv, limiter } = setup('2025-04-30T12:00:00Z');
    await (await limiter.admit(request(0.1))).settle({ actualTokens: 1, actualCostUsd: 0.1 });
    const ttl = await kv.ttl('limits:{org_1}:2025-04:usd');
    expect(ttl).toBe(12 * 3_600_000 + 40 * 86_400_000);
    clock.advance(ttl);
    expect(await kv.get('limits:{org_1}:2025-04:usd')).toBeNull();
  });
});

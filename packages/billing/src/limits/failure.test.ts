import { createMemoryKv, createRedisKv } from '@svc/kv';
import { describe, expect, it, vi } from 'vitest';
import { Limiter } from './limiter.js';
import type { AdmitRequest } from './limits.js';
import { fakeClock, limits, switchableKv } from './test-support.js';

const org = { id: 'org_1', monthlyBudgetUsd: 1, tokenQuota: null };
const l = limits({ rpm: 1, tpm: 1000, monthlyBudgetUsd: 1 });

function request(estimatedCostUsd = 0.5): AdmitRequest {
  return { orgId: org.id, keyId: 'key_1', limits: l, estimatedTokens: 100, estimatedCostUsd };
}

describe('when the Kv fails', () => {
  it('admits (fails open), reports the error, and catches the month counters up once the Kv is back', async () => {
    const clock = fakeClock('2025-06-15T12:00:00Z');
    let down = false;
    const kv = switchableKv(createMemoryKv({ now: clock.now }), () => down);
    const errors: unknown[] = [];
    const limiter = new Limiter({ kv, now: clock.now, onError: (error) => errors.push(error) });

    await (await limiter.admit(request())).settle({ actualTokens: 100, actualCostUsd: 0.5 });
    down = true;
    // Over the RPM limit and, once settled, over the budget: both are let through while down.
    const during = [await limiter.admit(request()), await limiter.admit(request())];
    expect(during.map((r) => r.headers)).toEqual([{}, {}]);
    expect(errors).toHaveLength(2);
    for (const reservation of during) await reservation.settle({ actualTokens: 100, actualCostUsd: 0.25 });
    expect(errors).toHaveLength(4);
    expect(limiter.backlog).toBe(2);

    down = false;
    clock.advance(60_000);
    // The first success writes the backlog (after its own admission, off its path).
    await limiter.admit(request(0.01));
    await vi.waitFor(() => expect(limiter.backlog).toBe(0));
    expect(await limiter.spend(org)).toMatchObject({ spentUsd: 1, tokens: 300, reservedUsd: 0.01 });
    await expect(limiter.admit(request(0.01))).rejects.toMatchObject({ status: 402 });
  });

  it('admits when the ledger cannot seed the month, and asks it again on the next request', async () => {
    const errors: unknown[] = [];
    let fail = true;
    const limiter = new Limiter({
      kv: createMemoryKv(),
      onError: (error) => errors.push(error),
      loadMonth: async () => {
        if (fail) throw new Error('ledger down');
        return { spentUsd: 0.9, tokens: 0 };
      },
    });
    await expect(limiter.admit(request())).resolves.toBeDefined();
    expect(errors).toEqual([new Error('ledger down')]);
    fail = false;
    await expect(limiter.admit({ ...request(), keyId: 'key_2', limits: { ...l, rpm: null } })).rejects.toMatchObject({
      status: 402,
    });
  });

  it('admits within about a second when Redis is unreachable', async () => {
    const errors: unknown[] = [];
    const kv = createRedisKv({ url: 'redis://127.0.0.1:1' });
    const limiter = new Limiter({ kv, onError: (error) => errors.push(error) });
    const started = Date.now();
    const reservation = await limiter.admit(request());
    await reservation.settle({ actualTokens: 1, actualCostUsd: 0.1 });
    expect(Date.now() - started).toBeLessThan(2500);
    expect(errors.length).toBeGreaterThanOrEqual(2);
    await kv.close();
  });
});

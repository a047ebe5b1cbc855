import { createMemoryKv } from '@svc/kv';
import { describe, expect, it } from 'vitest';
import { Limiter } from './limiter.js';
import type { AdmitRequest, Limits } from './limits.js';
import { fakeClock, limits } from './test-support.js';

const org = { id: 'org_1', monthlyBudgetUsd: 10, tokenQuota: 100_000 };

function setup(): Limiter {
  const clock = fakeClock('2025-06-15T12:00:00Z');
  return new Limiter({ kv: createMemoryKv({ now: clock.now }), now: clock.now });
}

function request(l: Limits, estimatedTokens: number, estimatedCostUsd = 0): AdmitRequest {
  return { orgId: org.id, keyId: 'key_1', limits: l, estimatedTokens, estimatedCostUsd };
}

/** Tokens left in the TPM bucket, read through a 1-token admission that is given back. */
async function tokensLeft(limiter: Limiter, l: Limits): Promise<number> {
  const probe = await limiter.admit(request(l, 1));
  await probe.release();
  return Number(probe.headers['x-ratelimit-remaining-tokens']) + 1;
}

describe('Reservation', () => {
  it('reserves the estimated tokens at admission and gives back what the answer did not use', async () => {
    const limiter = setup();
    const l = limits({ tpm: 1000 });
    const first = await limiter.admit(request(l, 600));
    expect(first.headers['x-ratelimit-remaining-tokens']).toBe('400');
    await expect(limiter.admit(request(l, 600))).rejects.toMatchObject({ status: 429 });
    await first.settle({ actualTokens: 100, actualCostUsd: 0 });
    expect(await tokensLeft(limiter, l)).toBe(900);
    await expect(limiter.admit(request(l, 600))).resolves.toBeDefined();
  });

  it('counts streamed tokens as they are charged: beyond the estimate they leave the bucket at once', async () => {
    const limiter = setup();
    const l = limits({ tpm: 1000, tokenQuota: org.tokenQuota, monthlyBudgetUsd: org.monthlyBudgetUsd });
    const stream = await limiter.admit(request(l, 100, 0.1));
    await stream.charge(60, 0.05);
    expect(await tokensLeft(limiter, l)).toBe(900);
    await stream.charge(140, 0.1);
    await stream.charge(50, 0.05);
    // 250 charged: 150 past the reservation are already counted, before the stream ends.
    expect(await tokensLeft(limiter, l)).toBe(750);
    expect(await limiter.spend(org)).toMatchObject({ spentUsd: 0.1, reservedUsd: 0.1, tokens: 150, reservedTokens: 100 });

    await stream.settle({ actualTokens: 240, actualCostUsd: 0.19 });
    expect(await tokensLeft(limiter, l)).toBe(760);
    expect(await limiter.spend(org)).toEqual({
      month: '2025-06',
      spentUsd: 0.19,
      reservedUsd: 0,
      tokens: 240,
      reservedTokens: 0,
      budgetUsd: 10,
      tokenQuota: 100_000,
    });
  });

  it('release returns everything but the request count; settle and release end it once', async () => {
    const limiter = setup();
    const l = limits({ rpm: 10, tpm: 1000, monthlyBudgetUsd: org.monthlyBudgetUsd });
    const failed = await limiter.admit(request(l, 500, 2));
    expect(await limiter.spend(org)).toMatchObject({ spentUsd: 0, reservedUsd: 2, reservedTokens: 500 });
    await failed.release();
    await failed.release();
    await failed.settle({ actualTokens: 999, actualCostUsd: 9 });
    await failed.charge(999, 9);
    expect(await limiter.spend(org)).toMatchObject({ spentUsd: 0, reservedUsd: 0, tokens: 0, reservedTokens: 0 });
    const next = await limiter.admit(request(l, 1));
    expect(next.headers['x-ratelimit-remaining-requests']).toBe('8');
    expect(next.headers['x-ratelimit-remaining-tokens']).toBe('999');
  });

  it('keeps what a stream charged when it is released midway', async () => {
    const limiter = setup();
    const l = limits({ monthlyBudgetUsd: org.monthlyBudgetUsd });
    const stream = await limiter.admit(request(l, 1000, 1));
    await stream.charge(300, 0.3);
    await stream.release();
    expect(await limiter.spend(org)).toMatchObject({ spentUsd: 0.3, reservedUsd: 0, tokens: 300, reservedTokens: 0 });
  });

  it('lets an answer that cost more than its estimate overspend once, then refuses with 402', async () => {
    const limiter = setup();
    const l = limits({ monthlyBudgetUsd: 1 });
    const big = await limiter.admit(request(l, 100, 0.9));
    await big.settle({ actualTokens: 100, actualCostUsd: 1.2 });
    expect(await limiter.spend(org)).toMatchObject({ spentUsd: 1.2, reservedUsd: 0 });
    await expect(limiter.admit(request(l, 1, 0))).rejects.toMatchObject({ status: 402, code: 'budget_exceeded' });
  });

  it('rejects invalid amounts', async () => {
    const limiter = setup();
    const reservation = await limiter.admit(request(limits({ tpm: 100 }), 1));
    await expect(reservation.charge(-1)).rejects.toThrow(RangeError);
    await expect(reservation.settle({ actualTokens: Number.NaN, actualCostUsd: 0 })).rejects.toThrow(RangeError);
  });

  it('is stored as plain data and settled by another limiter (a native batch collected after a restart)', async () => {
    const clock = fakeClock('2025-06-15T12:00:00Z');
    const kv = createMemoryKv({ now: clock.now });
    const l = limits({ monthlyBudgetUsd: 10 });
    const held = await new Limiter({ kv, now: clock.now }).admit(request(l, 1000, 4));
    const state = JSON.parse(JSON.stringify(held.held?.())) as Parameters<Limiter['resume']>[0];
    expect(state.micros).toBeGreaterThan(0);
    const restarted = new Limiter({ kv, now: clock.now });
    expect(await restarted.spend({ id: org.id, monthlyBudgetUsd: 10, tokenQuota: null })).toMatchObject({ spentUsd: 0, reservedUsd: 4 });
    await restarted.resume(state).settle({ actualTokens: 500, actualCostUsd: 1.5 });
    expect(await restarted.spend({ id: org.id, monthlyBudgetUsd: 10, tokenQuota: null })).toMatchObject({ spentUsd: 1.5, reservedUsd: 0 });
  });

  it('holds nothing to store once charged, or without limits', async () => {
    const limiter = setup();
    const charged = await limiter.admit(request(limits({ monthlyBudgetUsd: 10 }), 10, 0.1));
    await charged.charge(5, 0.01);
    expect(charged.held?.()).toBeUndefined();
    expect((await limiter.admit(request(limits({}), 10, 0.1))).held?.()).toBeUndefined();
  });
});

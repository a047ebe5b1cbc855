import { Limiter, isReservationState, tokenCostUsd } from '@svc/billing';
import type { Caller } from '@svc/core';
import { createMemoryKv } from '@svc/kv';
import { describe, expect, it } from 'vitest';
import { caller as baseCaller, catalog } from '../test/gateway-harness.js';
import { BatchEstimate, endBatchHold, shrinkBatchHold, takeBatchHold } from './batch-hold.js';

const budgeted = (budget: number, keyBudget?: number): Caller => ({
  ...baseCaller,
  org: { ...baseCaller.org, id: `org_${Math.random()}`, monthlyBudgetUsd: budget },
  ...(keyBudget === undefined ? {} : { keyLimits: { rpm: null, tpm: null, monthlyBudgetUsd: keyBudget } }),
});

const gpt = catalog.list({ provider: 'openai', kind: 'chat' })[0]!;

describe('BatchEstimate', () => {
  it('counts each line as its JSON (a token per 4 characters) plus max_tokens (else 1,000) at the interactive price of the model it names', () => {
    const estimate = new BatchEstimate({ catalog }, baseCaller, '/v1/chat/completions');
    const named = { model: gpt.id, messages: [{ role: 'user', content: 'hi' }], max_tokens: 20 };
    const unset = { model: gpt.id, messages: [{ role: 'user', content: 'hi' }] };
    estimate.add(named);
    estimate.add(unset);
    const prompt = (body: object) => Math.ceil(JSON.stringify(body).length / 4);
    expect(estimate.tokens).toBe(prompt(named) + 20 + prompt(unset) + 1000);
    expect(estimate.costUsd).toBeCloseTo(tokenCostUsd(gpt, { promptTokens: prompt(named), completionTokens: 20 }) + tokenCostUsd(gpt, { promptTokens: prompt(unset), completionTokens: 1000 }), 12);
  });

  it('prices svc/auto, a models list and unknown names at the highest input and output prices of the kind', () => {
    const chat = catalog.list({ kind: 'chat' });
    const ceiling = { inputPricePerMTok: Math.max(...chat.map((m) => m.inputPricePerMTok)), outputPricePerMTok: Math.max(...chat.map((m) => m.outputPricePerMTok)) };
    for (const body of [{ model: 'svc/auto', max_tokens: 10 }, { model: gpt.id, models: [gpt.id], max_tokens: 10 }, { model: 'nobody/knows', max_tokens: 10 }]) {
      const estimate = new BatchEstimate({ catalog }, baseCaller, '/v1/chat/completions');
      estimate.add(body);
      expect(estimate.costUsd).toBeGreaterThanOrEqual(tokenCostUsd(ceiling, { promptTokens: Math.ceil(JSON.stringify(body).length / 4), completionTokens: 10 }) * 0.999);
      expect(estimate.costUsd).toBeGreaterThan(tokenCostUsd(gpt, { promptTokens: Math.ceil(JSON.stringify(body).length / 4), completionTokens: 10 }));
    }
  });
});

describe('a batch hold', () => {
  const setup = () => new Limiter({ kv: createMemoryKv() });

  it('is refused with the budget error when the budget cannot hold it, and holds it (org and key) when it can', async () => {
    const limiter = setup();
    const who = budgeted(1, 0.5);
    await expect(takeBatchHold(limiter, who, { tokens: 100, costUsd: 0.6 }, 10)).rejects.toMatchObject({ status: 402, code: 'budget_exceeded' });
    const hold = await takeBatchHold(limiter, who, { tokens: 100, costUsd: 0.4 }, 10);
    expect(hold).toMatchObject({ lines: 10, stepLines: 1, released: 0, ended: false });
    expect((await limiter.spend(who.org)).reservedUsd).toBeCloseTo(0.4, 6);
    expect((await limiter.keySpend({ orgId: who.org.id, id: who.keyId, monthlyBudgetUsd: 0.5 })).reservedUsd).toBeCloseTo(0.4, 6);
  });

  it('gives back a share per answered step once, even when a stale hold (a crash before it was stored) gives it again, and the rest at the end', async () => {
    const limiter = setup();
    const who = budgeted(10);
    const first = (await takeBatchHold(limiter, who, { tokens: 1000, costUsd: 1 }, 100))!;
    expect(first.stepLines).toBe(2);
    const reserved = async () => (await limiter.spend(who.org)).reservedUsd;
    const after30 = await shrinkBatchHold(limiter, 'b1', first, 30);
    expect(after30.released).toBe(15);
    expect(await reserved()).toBeCloseTo(0.7, 6);
    // A worker that crashed before storing `after30` starts again from `first`: nothing is given twice.
    const again = await shrinkBatchHold(limiter, 'b1', first, 31);
    expect(again.released).toBe(15);
    expect(await reserved()).toBeCloseTo(0.7, 6);
    const ended = await endBatchHold(limiter, 'b1', again, 61);
    expect(ended).toMatchObject({ released: 30, ended: true });
    expect(await reserved()).toBe(0);
    expect((await limiter.spend(who.org)).spentUsd).toBe(0);
    // Ending again (a crash before the end was stored) gives nothing back twice.
    await endBatchHold(limiter, 'b1', again, 61);
    expect(await reserved()).toBe(0);
    expect((await limiter.spend(who.org)).spentUsd).toBe(0);
  });

  it('leaves a request admitted under the hold counted but unchecked, so the spend ends at what was billed', async () => {
    const limiter = setup();
    const who = budgeted(1);
    const hold = (await takeBatchHold(limiter, who, { tokens: 100, costUsd: 0.95 }, 2))!;
    const line = () => limiter.admit({ orgId: who.org.id, keyId: who.keyId, limits: { rpm: null, tpm: null, monthlyBudgetUsd: 1, tokenQuota: null }, estimatedTokens: 50, estimatedCostUsd: 0.475, budgetHeld: true });
    await expect(limiter.admit({ orgId: who.org.id, keyId: who.keyId, limits: { rpm: null, tpm: null, monthlyBudgetUsd: 1, tokenQuota: null }, estimatedTokens: 50, estimatedCostUsd: 0.475 })).rejects.toMatchObject({ status: 402 });
    await (await line()).settle({ actualTokens: 10, actualCostUsd: 0.01 });
    await (await line()).settle({ actualTokens: 10, actualCostUsd: 0.02 });
    await endBatchHold(limiter, 'b2', hold, 2);
    const spend = await limiter.spend(who.org);
    expect(spend.reservedUsd).toBe(0);
    expect(spend.spentUsd).toBeCloseTo(0.03, 6);
    expect(spend.reservedTokens).toBe(0);
    expect(spend.tokens).toBe(20);
  });

  it('reads its stored reservation through the limiter\'s shape check: one stored as JSON passes, one missing keys is never resumed (ended, nothing given back)', async () => {
    const limiter = setup();
    const who = budgeted(10);
    const hold = (await takeBatchHold(limiter, who, { tokens: 1000, costUsd: 1 }, 10))!;
    const stored = JSON.parse(JSON.stringify(hold)) as typeof hold;
    expect(isReservationState(stored.reservation)).toBe(true);
    for (const broken of [{ ...stored.reservation, micros: '12' }, { ...stored.reservation, month: { keys: { usd: 'k' }, ttlMs: 1, keyKeys: null } }, { ...stored.reservation, tokenBuckets: [{ kind: 'bucket', key: 'k' }] }, { tokens: 10, micros: 20 }]) {
      expect(isReservationState(broken)).toBe(false);
      const malformed = { ...stored, reservation: broken };
      expect(await shrinkBatchHold(limiter, 'b3', malformed, 10)).toBe(malformed);
      expect(await endBatchHold(limiter, 'b3', malformed, 10)).toEqual({ ...malformed, ended: true });
    }
    expect((await limiter.spend(who.org)).reservedUsd).toBeCloseTo(1, 6);
    expect(await endBatchHold(limiter, 'b3', stored, 10)).toMatchObject({ ended: true });
    expect((await limiter.spend(who.org)).reservedUsd).toBeCloseTo(0, 6);
  });
});

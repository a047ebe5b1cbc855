import type { AdmitRequest, Reservation } from '@svc/billing';
import { GatewayError } from '@svc/core';
import { createMetrics } from '@svc/telemetry';
import { describe, expect, it } from 'vitest';
import type { UsageEvent } from '../learn/learn-queue.js';
import { answering, caller, catalog, scripted } from '../test/gateway-harness.js';
import { createShadowModels } from './shadow-models.js';

const model = catalog.list({ provider: 'openai', kind: 'chat' })[0]!;
const budgeted = { ...caller, org: { ...caller.org, rpmLimit: 10, tpmLimit: 1000, monthlyBudgetUsd: 5, tokenQuota: 1_000_000 } };

/** A limiter that admits (recording what it was asked and how each reservation ended) or refuses with 402. */
function limiter(refuse: boolean) {
  const admitted: AdmitRequest[] = [];
  const ended: string[] = [];
  return {
    admitted,
    ended,
    async admit(request: AdmitRequest): Promise<Reservation> {
      admitted.push(request);
      if (refuse) throw new GatewayError({ status: 402, type: 'billing_error', code: 'budget_exceeded', message: 'The monthly budget is spent.' });
      return {
        headers: {},
        charge: async () => {},
        settle: async (usage) => void ended.push(`settle ${usage.actualTokens} ${usage.actualCostUsd.toFixed(6)}`),
        release: async () => void ended.push('release'),
      };
    },
  };
}

function models(limits: ReturnType<typeof limiter>, provider = answering(model.provider, () => 'the candidate')) {
  const usage: UsageEvent[] = [];
  const shadow = createShadowModels({
    catalog,
    providers: { get: (id) => (id === provider.id ? provider : undefined) },
    learn: { recordUsage: (row) => usage.push(row), recordDecision: () => {} },
    metrics: createMetrics({ defaultMetrics: false }),
    limiter: limits,
  });
  const call = () => shadow.call({ caller: budgeted, requestId: 'req_1', part: 'shadow', model, request: { model: model.id, messages: [{ role: 'user', content: 'Explain a hash map.' }], maxTokens: 200, stream: false, n: 1, includeUsage: false } });
  return { provider, usage, call };
}

describe('shadow and judge calls spend the organisation month', () => {
  it("are admitted against its budgets and token quota only (never its per-minute limits), with the prompt and max_tokens as the estimate, and settle what they used", async () => {
    const limits = limiter(false);
    const { usage, call } = models(limits);
    const answer = await call();
    expect(answer.text).toBe('the candidate');
    expect(limits.admitted).toEqual([
      expect.objectContaining({ orgId: 'org_1', keyId: 'key_1', limits: { rpm: null, tpm: null, keyRpm: null, keyTpm: null, monthlyBudgetUsd: 5, keyMonthlyBudgetUsd: null, tokenQuota: 1_000_000 } }),
    ]);
    expect(limits.admitted[0]!.estimatedTokens).toBeGreaterThan(200);
    expect(limits.admitted[0]!.estimatedCostUsd).toBeGreaterThan(0);
    // The answering provider reports 100 + 20 tokens.
    expect(limits.ended).toEqual([`settle 120 ${answer.costUsd.toFixed(6)}`]);
    expect(usage).toEqual([expect.objectContaining({ requestId: 'req_1:shadow', promptTokens: 100, completionTokens: 20, baselineCostUsd: answer.costUsd })]);
  });

  it('are not made when the month is spent: the 402 reaches the caller, no provider call, no ledger row', async () => {
    const limits = limiter(true);
    const { provider, usage, call } = models(limits);
    await expect(call()).rejects.toMatchObject({ status: 402, code: 'budget_exceeded' });
    expect(provider.asked).toEqual([]);
    expect(usage).toEqual([]);
  });

  it('give the reservation back when the call fails', async () => {
    const limits = limiter(false);
    const { usage, call } = models(limits, Object.assign(scripted(model.provider, () => 'overloaded'), { asked: [] }));
    await expect(call()).rejects.toThrow();
    expect(limits.ended).toEqual(['release']);
    expect(usage).toEqual([]);
  });
});

describe('the pool around the served model', () => {
  it('lists the cheaper models costliest first and the pricier ones cheapest first, never the served model', () => {
    const shadow = createShadowModels({ catalog, providers: { get: () => undefined }, learn: { recordUsage: () => {}, recordDecision: () => {} }, metrics: createMetrics({ defaultMetrics: false }) });
    const price = (m: { inputPricePerMTok: number; outputPricePerMTok: number }) => m.inputPricePerMTok + m.outputPricePerMTok;
    const chat = [...catalog.list({ kind: 'chat' })].sort((a, b) => price(a) - price(b));
    const served = chat.find((m) => price(m) > price(chat[0]!) && price(m) < price(chat.at(-1)!))!;
    const cheaper = shadow.cheaperThan(caller, served);
    const pricier = shadow.pricierThan(caller, served);
    expect(cheaper.length).toBeGreaterThan(0);
    expect(pricier.length).toBeGreaterThan(0);
    expect(cheaper.every((m) => price(m) < price(served))).toBe(true);
    expect(pricier.every((m) => price(m) > price(served))).toBe(true);
    expect(cheaper.map(price)).toEqual([...cheaper.map(price)].sort((a, b) => b - a));
    expect(pricier.map(price)).toEqual([...pricier.map(price)].sort((a, b) => a - b));
    expect([...cheaper, ...pricier].some((m) => m.id === served.id)).toBe(false);
  });
});

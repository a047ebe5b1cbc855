import type { ModelInfo } from '@svc/catalog';
import type { Caller, ChatRequest, IntelligenceMode } from '@svc/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DailyShadowBudget } from './daily-budget.js';
import type { ShadowSettings } from './settings.js';
import { ShadowJudging } from './shadow-judging.js';
import type { ShadowOffer } from './shadow-ports.js';

const caller: Caller = {
  keyId: 'key_1',
  keyPrefix: 'sk-svc-abc',
  org: { id: 'org-a', name: 'a', plan: 'free', rpmLimit: null, tpmLimit: null, monthlyBudgetUsd: null, tokenQuota: null, defaultIntelligenceMode: null, memoryScope: 'end_user', createdAt: new Date() },
  scopes: new Set(),
};
const request: ChatRequest = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream: false, n: 1, includeUsage: false };
const served = { id: 'openai/gpt-4o' } as ModelInfo;
const offerIn = (mode: IntelligenceMode): ShadowOffer => ({ caller, requestId: 'req_1', mode, request, served, answer: 'hello', completionTokens: 1, taskKind: null });
const on: ShadowSettings = { enabled: true, sampleRate: 0, candidateModels: undefined, judgeModel: 'openai/gpt-4o-mini', dailyBudgetUsd: 1 };

function judging(settings: (orgId: string) => ShadowSettings | undefined | Promise<ShadowSettings | undefined>) {
  const models = { permitted: () => undefined, cheaperThan: () => [], call: () => Promise.reject(new Error('no call expected')) };
  const budget = new DailyShadowBudget({ consumeWindow: () => Promise.reject(new Error('no budget expected')) });
  return new ShadowJudging({ models, settings, budget, sink: { record: () => undefined }, onError: (error) => expect.fail(String(error)) });
}

afterEach(() => vi.restoreAllMocks());

describe('ShadowJudging.offer on the request path', () => {
  it('schedules nothing when the cached settings say off (absent, disabled or no budget) or the request is proxy mode', () => {
    const scheduled = vi.spyOn(globalThis, 'setImmediate');
    for (const settings of [undefined, { ...on, enabled: false }, { ...on, dailyBudgetUsd: 0 }]) {
      const shadow = judging(() => settings);
      expect(shadow.accepts('org-a', 'full')).toBe(false);
      shadow.offer(offerIn('full'));
    }
    const read = vi.fn(() => on);
    const proxy = judging(read);
    expect(proxy.accepts('org-a', 'proxy')).toBe(false);
    proxy.offer(offerIn('proxy'));
    expect(read).not.toHaveBeenCalled();
    expect(scheduled).not.toHaveBeenCalled();
  });

  it('considers the offer in a later macrotask when judging is on, or while the settings load', async () => {
    const scheduled = vi.spyOn(globalThis, 'setImmediate');
    for (const settings of [() => on, () => Promise.resolve(on), () => Promise.resolve(undefined)]) {
      const shadow = judging(settings);
      expect(shadow.accepts('org-a', 'full')).toBe(true);
      shadow.offer(offerIn('full'));
      await shadow.idle();
    }
    expect(scheduled).toHaveBeenCalledTimes(3);
  });
});

import type { NativeBatches, Provider } from '@svc/providers';
import { describe, expect, it } from 'vitest';
import { answering, caller, catalog, request } from '../test/gateway-harness.js';
import { nativeLineCost, planNativeLine } from './native-batch.js';

const batches: NativeBatches = { submit: async () => ({ id: 'b', keyIndex: 0 }), status: async () => ({ state: 'ended' }), cancel: async () => {}, results: async function* () {} };
const openai: Provider = { ...answering('openai'), batches };
const org = (providers: Provider[], own = false) => ({ providers: new Map(providers.map((p) => [p.id, p])), ownKey: () => own });
const gpt = catalog.list({ provider: 'openai', kind: 'chat' })[0]!;

describe('planNativeLine', () => {
  it('sends a line naming one catalog model of a provider with a batch API, estimated at the batch price', () => {
    const plan = planNativeLine({ catalog }, org([openai]), caller, request({ model: gpt.id, maxTokens: 100 }));
    expect(plan).toMatchObject({ model: { id: gpt.id }, byok: false, request: { model: gpt.upstreamId, stream: false } });
    const interactive = ((plan!.estimate.tokens - 100) * gpt.inputPricePerMTok + 100 * gpt.outputPricePerMTok) / 1e6;
    expect(plan!.estimate.costUsd).toBeCloseTo(interactive / 2, 10);
  });

  it('leaves to the gateway aliases, models lists, svc options, guardrails, providers without a batch API and models without a batch price', () => {
    const plan = (patch: Parameters<typeof request>[0], providers = [openai], who = caller) => planNativeLine({ catalog }, org(providers), who, request(patch));
    expect(plan({ model: 'svc/auto' })).toBeUndefined();
    expect(plan({ model: gpt.id, models: [gpt.id] })).toBeUndefined();
    expect(plan({ model: gpt.id, svc: {} })).toBeUndefined();
    expect(plan({ model: gpt.id }, [answering('openai')])).toBeUndefined();
    expect(plan({ model: gpt.id }, [openai], { ...caller, guardrails: { checks: [] } as unknown as NonNullable<typeof caller.guardrails> })).toBeUndefined();
    const llama = catalog.list({ provider: 'groq', kind: 'chat' })[0]!;
    expect(plan({ model: llama.id }, [{ ...answering('groq'), batches }])).toBeUndefined();
  });

  it('bills a line at half the interactive price, the interactive price as its baseline', () => {
    const { cost, interactive } = nativeLineCost(gpt, { promptTokens: 1000, completionTokens: 500, totalTokens: 1500 });
    expect(cost.costUsd).toBeCloseTo(interactive.costUsd / 2, 10);
  });
});

import type { RouteOutcome } from '@svc/router';
import { describe, expect, it } from 'vitest';
import type { ChatJsonResponse } from '../gateway.js';
import { answering, catalog, request, setup } from '../test/gateway-harness.js';

const jsonObject = { type: 'json_object' as const };
const price = (id: string) => {
  const model = catalog.get(id)!;
  return model.inputPricePerMTok + model.outputPricePerMTok;
};

describe('svc.enable_speculation', () => {
  it('serves a cheaper draft that verification accepts, and says so', async () => {
    const providers = ['groq', 'together', 'anthropic', 'openai'].map((id) => answering(id, () => '{"answer": 42}'));
    const { gateway, context, usage, decisions } = setup(providers);
    const response = (await gateway.chat(request({ model: 'auto', responseFormat: jsonObject, svc: { enableSpeculation: true } }), context())) as ChatJsonResponse;
    const details = decisions[0]!.details as { speculation?: { draft: string; accepted: boolean }; waterfall: string[] };
    expect(details.speculation).toMatchObject({ accepted: true });
    expect(response.headers['x-svc-speculation-accepted']).toBe('1');
    expect(response.metadata.model).toBe(details.speculation!.draft);
    // the router's choice heads the waterfall; the draft is cheaper
    expect(price(details.speculation!.draft)).toBeLessThan(price(details.waterfall[0]!));
    expect(providers.reduce((n, p) => n + p.asked.length, 0)).toBe(1);
    expect(usage).toHaveLength(1);
    expect(response.metadata.not_applied ?? []).not.toContain('svc.enable_speculation');
  });

  it('falls back to the chosen model when the draft is not valid JSON, billing both calls', async () => {
    let draftModel = '';
    const providers = ['groq', 'together', 'anthropic', 'openai'].map((id) =>
      answering(id, (_call, { model }) => {
        if (!draftModel) draftModel = model;
        return model === draftModel ? 'I think the answer is forty-two.' : '{"answer": 42}';
      }),
    );
    const outcomes: RouteOutcome[] = [];
    const { gateway, context, usage, decisions } = setup(providers, undefined, { feedback: { record: (o) => outcomes.push(o) } });
    const response = (await gateway.chat(request({ model: 'auto', responseFormat: jsonObject, svc: { enableSpeculation: true } }), context())) as ChatJsonResponse;
    expect(response.headers['x-svc-speculation-accepted']).toBe('0');
    // The router learns that the draft model failed this request and the chosen one answered it.
    const draft = (decisions[0]!.details as { speculation: { draft: string } }).speculation.draft;
    expect(outcomes.map((o) => [o.modelId, o.success])).toEqual([
      [response.metadata.model, true],
      [draft, false],
    ]);
    expect(response.result.choices[0]!.message.content).toBe('{"answer": 42}');
    expect(response.metadata.model).toBe((decisions[0]!.details as { waterfall: string[] }).waterfall[0]);
    expect(response.result.usage).toMatchObject({ promptTokens: 200, completionTokens: 40 });
    // One ledger row for the request, billing the draft and the answer.
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ promptTokens: 200, completionTokens: 40 });
    expect(usage[0]!.costUsd).toBeCloseTo(response.metadata.cost_usd!, 12);
    expect(decisions[0]!.details).toMatchObject({ speculation: { accepted: false } });
  });

  it('is reported as not applied where nothing can check a draft: free text, streams, proxy mode', async () => {
    const providers = ['groq', 'together', 'anthropic', 'openai'].map((id) => answering(id, () => 'plain text'));
    const { gateway, context } = setup(providers);
    const free = (await gateway.chat(request({ model: 'auto', svc: { enableSpeculation: true } }), context())) as ChatJsonResponse;
    expect(free.metadata.not_applied).toContain('svc.enable_speculation');
    expect(free.headers['x-svc-speculation-accepted']).toBe('0');
    const proxy = (await gateway.chat(request({ model: 'auto', responseFormat: jsonObject, svc: { enableSpeculation: true } }), context('proxy'))) as ChatJsonResponse;
    expect(proxy.metadata.not_applied).toContain('svc.enable_speculation');
    expect(providers.reduce((n, p) => n + p.asked.length, 0)).toBe(2);
  });
});

import { type OutputConfig, defaultOutputConfig } from '@svc/core';
import { computeCost } from '@svc/billing';
import type { Provider } from '@svc/providers';
import type { RouteOutcome } from '@svc/router';
import { describe, expect, it } from 'vitest';
import type { ChatJsonResponse } from '../gateway.js';
import { answering, caller, catalog, llama, request, setup } from '../test/gateway-harness.js';

/** A provider answering the given texts in turn (the last one again once they run out). */
const inTurn = (id: string, texts: string[]) => answering(id, (call) => texts[Math.min(call, texts.length - 1)]!);

const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'], additionalProperties: false };
const jsonSchema = { type: 'json_schema' as const, name: 'forecast', schema, strict: true };

describe('output verification and healing', () => {
  it('heals a fenced answer with a string number, and reports how', async () => {
    const groq = inTurn('groq', ['```json\n{"city": "Paris", "days": "3"}\n```']);
    const { gateway, context } = setup([groq]);
    const response = (await gateway.chat(request({ responseFormat: jsonSchema }), context())) as ChatJsonResponse;
    expect(JSON.parse(response.result.choices[0]!.message.content!)).toEqual({ city: 'Paris', days: 3 });
    expect(response.metadata.healer_report).toMatchObject({ original: expect.stringContaining('```'), stage: 2, confidence: expect.any(Number) });
    expect(response.metadata.healer_report!.confidence).toBeLessThan(1);
    expect(groq.asked).toHaveLength(1);
  });

  it('leaves a valid answer untouched, without a report', async () => {
    const groq = inTurn('groq', ['{"city":"Paris","days":3}']);
    const { gateway, context } = setup([groq]);
    const response = (await gateway.chat(request({ responseFormat: jsonSchema }), context())) as ChatJsonResponse;
    expect(response.result.choices[0]!.message.content).toBe('{"city":"Paris","days":3}');
    expect(response.metadata.healer_report).toBeUndefined();
  });

  it('re-asks the same model once under native verification, bills both calls and logs the re-ask', async () => {
    const groq = inTurn('groq', ['I cannot say.', '{"city":"Rome","days":2}']);
    const { gateway, context, usage, decisions } = setup([groq]);
    const response = (await gateway.chat(request({ responseFormat: jsonSchema, svc: { outputVerification: 'native' } }), context())) as ChatJsonResponse;
    expect(groq.asked).toHaveLength(2);
    expect(groq.asked[1]!.messages.at(-1)!.role).toBe('user');
    expect(response.result.choices[0]!.message.content).toBe('{"city":"Rome","days":2}');
    expect(response.metadata.healer_report).toMatchObject({ original: 'I cannot say.', stage: 3, confidence: 1 });
    expect(response.result.usage).toMatchObject({ promptTokens: 200, completionTokens: 40 });
    // One ledger row for the request, billing both calls.
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ promptTokens: 200, completionTokens: 40 });
    expect(usage[0]!.costUsd).toBeCloseTo(response.metadata.cost_usd!, 12);
    expect(usage[0]!.costUsd).toBeCloseTo(2 * computeCost(llama, { promptTokens: 100, completionTokens: 20, totalTokens: 120 }).costUsd, 12);
    expect(decisions[0]!.details).toMatchObject({ reask: { model: llama.id, valid: true } });
  });

  it('returns the model’s own answer, reported as still invalid, when the re-ask fails too', async () => {
    const groq = inTurn('groq', ['nope', 'still nope']);
    const { gateway, context } = setup([groq]);
    const response = (await gateway.chat(request({ responseFormat: jsonSchema, svc: { outputVerification: 'native' } }), context())) as ChatJsonResponse;
    expect(groq.asked).toHaveLength(2);
    expect(response.result.choices[0]!.message.content).toBe('nope');
    expect(response.metadata.healer_report).toMatchObject({ stage: 3, confidence: 0 });
  });

  it('re-asks another model of the waterfall under cross_model', async () => {
    const groq = inTurn('groq', ['not json']);
    const together = inTurn('together', ['{"city":"Oslo","days":1}']);
    const { gateway, context } = setup([groq, together]);
    const response = (await gateway.chat(request({ responseFormat: jsonSchema, svc: { outputVerification: 'cross_model' } }), context())) as ChatJsonResponse;
    expect([groq.asked.length, together.asked.length]).toEqual([1, 1]);
    expect(response.result.choices[0]!.message.content).toBe('{"city":"Oslo","days":1}');
  });

  it('reliability_level critical re-asks another model when the request names no verification', async () => {
    const groq = inTurn('groq', ['not json']);
    const together = inTurn('together', ['{"city":"Oslo","days":1}']);
    const { gateway, context } = setup([groq, together]);
    const response = (await gateway.chat(request({ responseFormat: jsonSchema, svc: { reliabilityLevel: 'critical' } }), context())) as ChatJsonResponse;
    expect([groq.asked.length, together.asked.length]).toEqual([1, 1]);
    expect(response.result.choices[0]!.message.content).toBe('{"city":"Oslo","days":1}');
  });

  it('reliability_level standard spends no second call', async () => {
    const groq = inTurn('groq', ['not json', '{"city":"Rome","days":2}']);
    const { gateway, context } = setup([groq]);
    const response = (await gateway.chat(request({ responseFormat: jsonSchema, svc: { reliabilityLevel: 'standard' } }), context())) as ChatJsonResponse;
    expect(groq.asked).toHaveLength(1);
    expect(response.metadata.healer_report).toMatchObject({ confidence: 0 });
  });

  it('does nothing in proxy mode, and says so when verification was asked for', async () => {
    const groq = inTurn('groq', ['```json\n{"city": "Paris", "days": "3"}\n```']);
    const { gateway, context } = setup([groq]);
    const response = (await gateway.chat(request({ responseFormat: jsonSchema, svc: { outputVerification: 'native' } }), context('proxy'))) as ChatJsonResponse;
    expect(response.result.choices[0]!.message.content).toContain('```');
    expect(response.metadata.healer_report).toBeUndefined();
    expect(response.metadata.not_applied).toContain('svc.output_verification');
  });

  it('skips verification when output_verification is none', async () => {
    const groq = inTurn('groq', ['```json\n{"city": "Paris", "days": "3"}\n```']);
    const { gateway, context } = setup([groq]);
    const response = (await gateway.chat(request({ responseFormat: jsonSchema, svc: { outputVerification: 'none' } }), context())) as ChatJsonResponse;
    expect(response.result.choices[0]!.message.content).toContain('```');
  });
});

describe('the organisation’s output config (a request that names no output_verification)', () => {
  /** A request context whose organisation stored `config`. */
  const withConfig = (context: () => ReturnType<ReturnType<typeof setup>['context']>, config: Partial<OutputConfig>) => ({
    ...context(),
    caller: { ...caller, org: { ...caller.org, outputConfig: { ...defaultOutputConfig, ...config } } },
  });
  const fenced = '```json\n{"city": "Paris", "days": "3"}\n```';

  it('re-asks under the organisation’s default mode; the request’s own setting still wins', async () => {
    const groq = inTurn('groq', ['nope', '{"city":"Rome","days":2}']);
    const { gateway, context } = setup([groq]);
    const response = (await gateway.chat(request({ responseFormat: jsonSchema }), withConfig(context, { outputVerification: 'native' }))) as ChatJsonResponse;
    expect(groq.asked).toHaveLength(2);
    expect(response.result.choices[0]!.message.content).toBe('{"city":"Rome","days":2}');
    const none = inTurn('groq', ['nope', '{"city":"Rome","days":2}']);
    const other = setup([none]);
    await other.gateway.chat(request({ responseFormat: jsonSchema, svc: { outputVerification: 'none' } }), withConfig(other.context, { outputVerification: 'native' }));
    expect(none.asked).toHaveLength(1);
  });

  it('serves no healed answer with healing off: the answer stays as written, reported invalid, and is re-asked when the mode allows', async () => {
    const groq = inTurn('groq', [fenced]);
    const { gateway, context } = setup([groq]);
    const response = (await gateway.chat(request({ responseFormat: jsonSchema }), withConfig(context, { healing: false }))) as ChatJsonResponse;
    expect(response.result.choices[0]!.message.content).toBe(fenced);
    expect(response.metadata.healer_report).toMatchObject({ original: fenced, healed: fenced, stage: 3, confidence: 0 });
    const reasked = inTurn('groq', [fenced, '{"city":"Paris","days":3}']);
    const second = setup([reasked]);
    const fixed = (await second.gateway.chat(request({ responseFormat: jsonSchema }), withConfig(second.context, { healing: false, outputVerification: 'native' }))) as ChatJsonResponse;
    expect(reasked.asked).toHaveLength(2);
    expect(fixed.result.choices[0]!.message.content).toBe('{"city":"Paris","days":3}');
  });

  it('refuses a healed answer below the minimum confidence', async () => {
    const groq = inTurn('groq', [fenced]);
    const { gateway, context } = setup([groq]);
    const accepted = (await gateway.chat(request({ responseFormat: jsonSchema }), context())) as ChatJsonResponse;
    const confidence = accepted.metadata.healer_report!.confidence;
    expect(JSON.parse(accepted.result.choices[0]!.message.content!)).toEqual({ city: 'Paris', days: 3 });
    const refused = (await gateway.chat(request({ responseFormat: jsonSchema }), withConfig(context, { minConfidence: Math.min(1, confidence + 0.01) }))) as ChatJsonResponse;
    expect(refused.result.choices[0]!.message.content).toBe(fenced);
    expect(refused.metadata.healer_report).toMatchObject({ stage: 3, confidence: 0 });
  });

  it('re-asks up to max_reasks times, all billed in the request’s one ledger row; 0 re-asks none even when the request asks', async () => {
    const groq = inTurn('groq', ['nope', 'still nope', '{"city":"Rome","days":2}']);
    const { gateway, context, usage, decisions } = setup([groq]);
    const response = (await gateway.chat(request({ responseFormat: jsonSchema }), withConfig(context, { outputVerification: 'native', maxReasks: 2 }))) as ChatJsonResponse;
    expect(groq.asked).toHaveLength(3);
    expect(response.result.choices[0]!.message.content).toBe('{"city":"Rome","days":2}');
    expect(response.result.usage).toMatchObject({ promptTokens: 300, completionTokens: 60 });
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ promptTokens: 300, completionTokens: 60 });
    expect(response.metadata.cost_usd).toBeCloseTo(usage[0]!.costUsd, 12);
    expect(decisions[0]!.details).toMatchObject({ reask: { valid: true, count: 2 } });
    const capped = inTurn('groq', ['nope', '{"city":"Rome","days":2}']);
    const second = setup([capped]);
    await second.gateway.chat(request({ responseFormat: jsonSchema, svc: { outputVerification: 'native' } }), withConfig(second.context, { maxReasks: 0 }));
    expect(capped.asked).toHaveLength(1);
  });

  it('re-asks the organisation’s cross-model candidate first', async () => {
    const candidate = catalog.list({ provider: 'openai', kind: 'chat' })[0]!;
    const groq = inTurn('groq', ['not json']);
    const together = inTurn('together', ['{"city":"Oslo","days":1}']);
    const openai = inTurn('openai', ['{"city":"Lima","days":4}']);
    const { gateway, context } = setup([groq, together, openai]);
    const response = (await gateway.chat(request({ responseFormat: jsonSchema }), withConfig(context, { outputVerification: 'cross_model', crossModelCandidate: candidate.id }))) as ChatJsonResponse;
    expect([groq.asked.length, together.asked.length, openai.asked.length]).toEqual([1, 0, 1]);
    expect(openai.asked[0]!.model).toBe(candidate.upstreamId);
    expect(response.result.choices[0]!.message.content).toBe('{"city":"Lima","days":4}');
  });
});

describe('stream verification', () => {
  it('verifies a stream once complete and reports in the final metadata, without touching the chunks', async () => {
    const groq = inTurn('groq', []);
    groq.stream = async () =>
      (async function* () {
        yield { type: 'text-delta' as const, choice: 0, text: '```json\n{"city": "Paris", ' };
        yield { type: 'text-delta' as const, choice: 0, text: '"days": 3}\n```' };
        yield { type: 'finish' as const, choice: 0, finishReason: 'stop' as const };
      })();
    const { gateway, context } = setup([groq]);
    const response = await gateway.chat(request({ stream: true, responseFormat: jsonSchema }), context());
    if (response.kind !== 'stream') throw new Error('stream expected');
    let text = '';
    for await (const event of response.events) if (event.type === 'text-delta') text += event.text;
    expect(text).toContain('```');
    expect(response.metadata()?.healer_report).toMatchObject({ stage: 1, healed: '{"city": "Paris", "days": 3}' });
  });
});

describe('verification teaches the router', () => {
  const learnFrom = (groq: Provider) => {
    const outcomes: RouteOutcome[] = [];
    return { outcomes, ...setup([groq], undefined, { feedback: { record: (o) => outcomes.push(o) } }) };
  };

  it('a valid answer is a full success, with its cost', async () => {
    const { gateway, context, outcomes } = learnFrom(inTurn('groq', ['{"city":"Paris","days":3}']));
    await gateway.chat(request({ responseFormat: jsonSchema }), context());
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ modelId: llama.id, success: true });
    expect(outcomes[0]!.quality).toBeUndefined();
    expect(outcomes[0]!.costUsd).toBeGreaterThan(0);
  });

  it('a healed answer is worth its confidence, a re-asked one nothing', async () => {
    const healed = learnFrom(inTurn('groq', ['```json\n{"city": "Paris", "days": "3"}\n```']));
    const response = (await healed.gateway.chat(request({ responseFormat: jsonSchema }), healed.context())) as ChatJsonResponse;
    expect(healed.outcomes[0]!.quality).toBe(response.metadata.healer_report!.confidence);
    expect(healed.outcomes[0]!.quality).toBeLessThan(1);

    const reasked = learnFrom(inTurn('groq', ['I cannot say.', '{"city":"Rome","days":2}']));
    await reasked.gateway.chat(request({ responseFormat: jsonSchema, svc: { outputVerification: 'native' } }), reasked.context());
    expect(reasked.outcomes[0]).toMatchObject({ modelId: llama.id, success: true, quality: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import { answering, catalog, request, setup } from '../test/gateway-harness.js';

const gpt4o = catalog.get('openai/gpt-4o-mini')!;
const o4 = catalog.get('openai/o4-mini')!;

describe('reasoning controls a model cannot apply', () => {
  it('are not sent to a non-reasoning model and are listed in not_applied, JSON and stream alike', async () => {
    const openai = answering('openai');
    const { gateway, context } = setup([openai]);
    const json = await gateway.chat(request({ model: gpt4o.id, reasoningEffort: 'high' }), context('proxy'));
    if (json.kind !== 'json') throw new Error('expected json');
    expect(json.metadata.not_applied).toEqual(['reasoning_effort']);
    expect(openai.asked[0]!.reasoningEffort).toBeUndefined();

    const stream = await gateway.chat(request({ model: gpt4o.id, stream: true, reasoning: { maxTokens: 4096 }, maxTokens: 8000 }), context('proxy'));
    if (stream.kind !== 'stream') throw new Error('expected a stream');
    for await (const _ of stream.events);
    expect(stream.metadata()!.not_applied).toEqual(['reasoning.max_tokens']);
    expect(openai.asked[1]!.reasoning).toBeUndefined();
    expect(openai.asked[1]!.maxTokens).toBe(8000);
  });

  it('reach a reasoning model untouched, with nothing reported', async () => {
    const openai = answering('openai');
    const { gateway, context } = setup([openai]);
    const response = await gateway.chat(request({ model: o4.id, reasoningEffort: 'low', reasoning: { maxTokens: 2048 } }), context('proxy'));
    if (response.kind !== 'json') throw new Error('expected json');
    expect(response.metadata.not_applied).toBeUndefined();
    expect(openai.asked[0]).toMatchObject({ reasoningEffort: 'low', reasoning: { maxTokens: 2048 } });
  });
});

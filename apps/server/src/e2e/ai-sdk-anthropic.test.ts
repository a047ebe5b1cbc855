import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, jsonSchema, streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

// The Vercel AI SDK validates every answer against its own schemas (unlike Anthropic's SDK), so
// a field it does not expect (`citations: null` was one) fails the call.
describe('Vercel AI SDK (@ai-sdk/anthropic) against /v1/messages', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway({ SVC_MOCK_PROVIDER: '1' });
  });
  afterAll(() => gateway.stop());

  const model = () => createAnthropic({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey })('mock/mock-value');

  it('generateText answers a plain text prompt', async () => {
    const result = await generateText({ model: model(), prompt: 'Say hello to the gateway', maxRetries: 0 });
    expect(result.text).toMatch(/\S/);
    expect(result.finishReason).toBe('stop');
    expect(result.usage.outputTokens).toBeGreaterThan(0);
  });

  it('streamText streams a plain text answer', async () => {
    const result = streamText({ model: model(), prompt: 'Tell me a story about streams', maxRetries: 0 });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(await result.text).toBe(deltas.join(''));
    expect(await result.finishReason).toBe('stop');
  });

  it('generateText gets a tool call back', async () => {
    const result = await generateText({
      model: model(),
      prompt: 'Weather in Paris?',
      tools: { get_weather: tool({ description: 'Weather of a city', inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }) }) },
      toolChoice: 'required',
      maxRetries: 0,
    });
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'get_weather', input: { city: expect.any(String) } });
  });
});

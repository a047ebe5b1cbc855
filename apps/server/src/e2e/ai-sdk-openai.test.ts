import { createOpenAI } from '@ai-sdk/openai';
import { embed, embedMany, generateObject, generateText, jsonSchema, streamObject, streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

// The Vercel AI SDK checks every answer against its own schemas; `openai(id)` speaks the
// Responses API, `openai.chat(id)` chat completions: both are how people point it at a gateway.
describe('Vercel AI SDK (@ai-sdk/openai) against the gateway', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway({ SVC_MOCK_PROVIDER: '1' });
  });
  afterAll(() => gateway.stop());

  const provider = () => createOpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey });
  const models = { responses: (id: string) => provider()(id), chat: (id: string) => provider().chat(id) };
  const person = jsonSchema<{ name: string; age: number }>({ type: 'object', properties: { name: { type: 'string' }, age: { type: 'number' } }, required: ['name', 'age'], additionalProperties: false });
  const weather = tool({ description: 'Weather of a city', inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }) });

  for (const [api, model] of Object.entries(models)) {
    describe(`through ${api}`, () => {
      it('generateText answers a plain text prompt', async () => {
        const result = await generateText({ model: model('mock/mock-value'), prompt: 'Say hello to the gateway', maxRetries: 0 });
        expect(result.text).toMatch(/\S/);
        expect(result.finishReason).toBe('stop');
        expect(result.usage.outputTokens).toBeGreaterThan(0);
      });

      it('streamText streams a plain text answer', async () => {
        const result = streamText({ model: model('svc/auto'), prompt: 'Tell me a story about streams', maxRetries: 0 });
        const deltas: string[] = [];
        for await (const delta of result.textStream) deltas.push(delta);
        expect(deltas.length).toBeGreaterThan(1);
        expect(await result.text).toBe(deltas.join(''));
        expect(await result.finishReason).toBe('stop');
        expect((await result.usage).outputTokens).toBeGreaterThan(0);
      });

      it('generateText gets a tool call back', async () => {
        const result = await generateText({ model: model('mock/mock-value'), prompt: 'Weather in Paris?', tools: { get_weather: weather }, toolChoice: 'required', maxRetries: 0 });
        expect(result.toolCalls[0]).toMatchObject({ toolName: 'get_weather', input: { city: expect.any(String) } });
        expect(result.finishReason).toBe('tool-calls');
      });

      it('generateObject and streamObject fill a JSON schema', async () => {
        const generated = await generateObject({ model: model('mock/mock-value'), schema: person, prompt: 'A person', maxRetries: 0 });
        expect(generated.object).toMatchObject({ name: expect.any(String), age: expect.any(Number) });
        const streamed = streamObject({ model: model('mock/mock-value'), schema: person, prompt: 'A person', maxRetries: 0 });
        const partials: unknown[] = [];
        for await (const partial of streamed.partialObjectStream) partials.push(partial);
        expect(partials.length).toBeGreaterThan(1);
        expect(await streamed.object).toMatchObject({ name: expect.any(String), age: expect.any(Number) });
      });
    });
  }

  it('embed and embedMany return vectors of one width', async () => {
    const one = await embed({ model: provider().embedding('mock/mock-embed'), value: 'the quick brown fox', maxRetries: 0 });
    expect(one.embedding.length).toBeGreaterThan(0);
    const many = await embedMany({ model: provider().embedding('mock/mock-embed'), values: ['a cat', 'a dog'], maxRetries: 0 });
    expect(many.embeddings).toHaveLength(2);
    expect(many.embeddings.every((vector) => vector.length === one.embedding.length)).toBe(true);
    expect(many.usage.tokens).toBeGreaterThan(0);
  });
});

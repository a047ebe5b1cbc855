import type { BaseTool } from '@llamaindex/core/llms';
import { OpenAI, OpenAIEmbedding, OpenAIResponses } from '@llamaindex/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
type ToolCall = { name: string; input: unknown };
type ToolCalls = { toolCall?: ToolCall[] };

const weather: BaseTool = {
  metadata: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  call: () => 'sunny',
};

// LlamaIndex TS's OpenAI LLM (chat completions through the openai SDK it bundles) with its base URL at the gateway.
describe('LlamaIndex TS (@llamaindex/openai) against the gateway', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway({ SVC_MOCK_PROVIDER: '1' });
  });
  afterAll(() => gateway.stop());

  const llm = (model: string) => new OpenAI({ model, apiKey: masterKey, baseURL: `${gateway.inferenceUrl}/v1`, maxRetries: 0 });

  it('chats and streams', async () => {
    const answer = await llm('mock/mock-value').chat({ messages: [{ role: 'user', content: 'Say hello to the gateway' }] });
    expect(answer.message.role).toBe('assistant');
    expect(answer.message.content).toMatch(/\S/);
    const deltas: string[] = [];
    for await (const chunk of await llm('svc/auto').chat({ messages: [{ role: 'user', content: 'Tell me a story about streams' }], stream: true })) deltas.push(chunk.delta);
    expect(deltas.filter(Boolean).length).toBeGreaterThan(1);
  });

  it('chats and streams through the Responses API (OpenAIResponses)', async () => {
    const responses = new OpenAIResponses({ model: 'mock/mock-value', apiKey: masterKey, baseURL: `${gateway.inferenceUrl}/v1`, maxRetries: 0 });
    const answer = await responses.chat({ messages: [{ role: 'user', content: 'Say hello to the gateway' }] });
    expect(answer.message.content).toMatch(/\S/);
    const deltas: string[] = [];
    for await (const chunk of await responses.chat({ messages: [{ role: 'user', content: 'Tell me a story about streams' }], stream: true })) deltas.push(chunk.delta);
    expect(deltas.filter(Boolean).length).toBeGreaterThan(1);
  });

  it('gets a tool call back, non-stream and stream', async () => {
    const messages = [{ role: 'user' as const, content: 'Weather in Paris?' }];
    const answer = await llm('mock/mock-value').chat({ messages, tools: [weather], additionalChatOptions: { tool_choice: 'required' } });
    // Non-stream, LlamaIndex hands the arguments over as the JSON text the answer carried.
    const [call] = (answer.message.options as ToolCalls).toolCall ?? [];
    expect(call).toMatchObject({ name: 'get_weather' });
    expect(JSON.parse(call!.input as string)).toMatchObject({ city: expect.any(String) });
    const streamed: ToolCall[] = [];
    for await (const chunk of await llm('mock/mock-value').chat({ messages, tools: [weather], additionalChatOptions: { tool_choice: 'required' }, stream: true })) {
      streamed.push(...((chunk.options as ToolCalls | undefined)?.toolCall ?? []));
    }
    expect(streamed.at(-1)).toMatchObject({ name: 'get_weather', input: { city: expect.any(String) } });
  });

  it('embeds through OpenAIEmbedding', async () => {
    const embedding = new OpenAIEmbedding({ model: 'mock/mock-embed', apiKey: masterKey, baseURL: `${gateway.inferenceUrl}/v1`, maxRetries: 0 });
    const vector = await embedding.getTextEmbedding('the quick brown fox');
    expect(vector.length).toBeGreaterThan(0);
  });
});

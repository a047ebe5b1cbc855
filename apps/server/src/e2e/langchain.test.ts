import { ChatAnthropic } from '@langchain/anthropic';
import type { AIMessageChunk } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { ChatOpenAI, OpenAIEmbeddings } from '@langchain/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

/** The text parts of a streamed answer, and its chunks merged the way LangChain merges them. */
async function collect(stream: AsyncIterable<AIMessageChunk>): Promise<{ parts: string[]; merged: AIMessageChunk }> {
  const parts: string[] = [];
  let merged: AIMessageChunk | undefined;
  for await (const chunk of stream) {
    if (chunk.text) parts.push(chunk.text);
    merged = merged ? concat(merged, chunk) : chunk;
  }
  return { parts, merged: merged! };
}

// LangChain JS with its base URL pointed at the gateway: the OpenAI and Anthropic integrations.
describe('LangChain JS against the gateway', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway({ SVC_MOCK_PROVIDER: '1' });
  });
  afterAll(() => gateway.stop());

  const openai = (model: string, useResponsesApi = false) =>
    new ChatOpenAI({ model, apiKey: masterKey, configuration: { baseURL: `${gateway.inferenceUrl}/v1` }, maxRetries: 0, useResponsesApi });
  const anthropic = () => new ChatAnthropic({ model: 'mock/mock-value', apiKey: masterKey, anthropicApiUrl: gateway.inferenceUrl, maxRetries: 0 });

  for (const useResponsesApi of [false, true]) {
    it(`ChatOpenAI invokes and streams${useResponsesApi ? ' through the Responses API' : ''}`, async () => {
      const answer = await openai('mock/mock-value', useResponsesApi).invoke('Say hello to the gateway');
      expect(answer.text).toMatch(/\S/);
      expect(answer.usage_metadata?.output_tokens).toBeGreaterThan(0);
      const { parts, merged } = await collect(await openai('svc/auto', useResponsesApi).stream('Tell me a story about streams'));
      expect(parts.length).toBeGreaterThan(1);
      expect(merged.usage_metadata?.output_tokens).toBeGreaterThan(0);
    });
  }

  it('ChatOpenAI fills a schema with withStructuredOutput', async () => {
    const person = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'number' } }, required: ['name', 'age'], additionalProperties: false };
    const answer = await openai('mock/mock-value').withStructuredOutput<{ name: string; age: number }>(person, { name: 'person' }).invoke('A person');
    expect(answer).toMatchObject({ name: expect.any(String), age: expect.any(Number) });
  });

  it('ChatOpenAI with a bound tool gets a tool call back, invoked and streamed', async () => {
    const bound = openai('mock/mock-value').bindTools([weatherTool], { tool_choice: 'required' });
    const answer = await bound.invoke('Weather in Paris?');
    expect(answer.tool_calls?.[0]).toMatchObject({ name: 'get_weather', args: { city: expect.any(String) } });
    const { merged } = await collect(await bound.stream('Weather in Oslo?'));
    expect(merged.tool_calls?.[0]).toMatchObject({ name: 'get_weather', args: { city: expect.any(String) } });
  });

  it('OpenAIEmbeddings embeds a query and documents', async () => {
    const embeddings = new OpenAIEmbeddings({ model: 'mock/mock-embed', apiKey: masterKey, configuration: { baseURL: `${gateway.inferenceUrl}/v1` }, maxRetries: 0 });
    const query = await embeddings.embedQuery('the quick brown fox');
    expect(query.length).toBeGreaterThan(0);
    const documents = await embeddings.embedDocuments(['a cat', 'a dog']);
    expect(documents).toHaveLength(2);
    expect(documents.every((vector) => vector.length === query.length)).toBe(true);
  });

  it('ChatAnthropic with a bound tool gets a tool call back', async () => {
    const tool = { name: 'get_weather', description: 'Weather of a city', input_schema: weatherTool.function.parameters };
    const answer = await anthropic().bindTools([tool], { tool_choice: 'any' }).invoke('Weather in Paris?');
    expect(answer.tool_calls?.[0]).toMatchObject({ name: 'get_weather', args: { city: expect.any(String) } });
  });

  it('ChatAnthropic invokes and streams', async () => {
    const answer = await anthropic().invoke('Say hello to the gateway');
    expect(answer.text).toMatch(/\S/);
    expect(answer.usage_metadata?.output_tokens).toBeGreaterThan(0);
    const { parts, merged } = await collect(await anthropic().stream('Tell me a story about streams'));
    expect(parts.length).toBeGreaterThan(1);
    expect(merged.usage_metadata?.output_tokens).toBeGreaterThan(0);
  });
});

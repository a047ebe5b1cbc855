import { describe, expect, it } from 'vitest';
import { chatRequest } from '../test/chat-request.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { collect, drainUntilError, rejection } from '../test/outcomes.js';
import { useFixtureProvider } from '../test/use-fixture-server.js';
import { createGeminiProvider } from './gemini-provider.js';

const { json, chunks } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

const base = chatRequest('gemini-2.5-flash');

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather',
  parameters: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { location: { type: 'string' } },
    required: ['location'],
    additionalProperties: false,
  },
};

const serve = useFixtureProvider((url) => createGeminiProvider({ apiKeys: ['g-key-1', 'g-key-2'], baseUrl: url }));

const callId = expect.stringMatching(/^call_[0-9A-Za-z]{24}$/);

describe('gemini chat', () => {
  it('sends generateContent with the key header and reads text and usage', async () => {
    const { server, provider } = await serve({ json: json('text') });
    const result = await provider.chat({ ...base, maxTokens: 256, temperature: 1.5, topP: 0.9, stop: ['END'], seed: 7, presencePenalty: 0.5 });

    const [sent] = server.requests;
    expect(sent?.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(sent?.headers['x-goog-api-key']).toBe('g-key-1');
    expect(sent?.body).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      generationConfig: { maxOutputTokens: 256, temperature: 1.5, topP: 0.9, stopSequences: ['END'], seed: 7, presencePenalty: 0.5 },
    });
    expect(result).toEqual({
      id: 'Il0taoSYJ5Cez7IPx4-pmAQ',
      model: 'gemini-2.5-flash',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?' }, finishReason: 'stop' }],
      usage: { promptTokens: 2012, completionTokens: 29, totalTokens: 2041, cachedPromptTokens: 1800, reasoningTokens: 20 },
    });
  });

  it('takes keys round-robin unless the call names one', async () => {
    const { server, provider } = await serve({ json: json('text') });
    await provider.chat(base);
    await provider.chat(base);
    await provider.chat(base, { apiKey: 'g-byok' });
    expect(server.requests.map((request) => request.headers['x-goog-api-key'])).toEqual(['g-key-1', 'g-key-2', 'g-byok']);
  });

  it('declares tools without keys Gemini rejects and returns calls with generated ids', async () => {
    const { server, provider } = await serve({ json: json('tools') });
    const result = await provider.chat({ ...base, tools: [weatherTool, { name: 'get_time', parameters: { type: 'object', properties: {} } }], toolChoice: { name: 'get_weather' } });

    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } },
          { name: 'get_time' },
        ],
      },
    ]);
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } });
    expect(result.choices[0]).toEqual({
      index: 0,
      finishReason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        toolCalls: [
          { id: callId, name: 'get_weather', arguments: '{"location":"Paris, France"}' },
          { id: callId, name: 'get_time', arguments: '{}' },
        ],
      },
    });
  });

  it('uses native JSON mode with a converted response schema', async () => {
    const { server, provider } = await serve({ json: json('json-mode') });
    const schema = { type: 'object', properties: { city: { type: 'string' }, population: { type: ['integer', 'null'] } }, additionalProperties: false };
    const result = await provider.chat({ ...base, responseFormat: { type: 'json_schema', name: 'city', schema, strict: true } });

    expect(server.requests[0]?.body).toHaveProperty('generationConfig', {
      responseMimeType: 'application/json',
      responseSchema: { type: 'object', properties: { city: { type: 'string' }, population: { type: 'integer', nullable: true } } },
    });
    expect(JSON.parse(result.choices[0]?.message.content ?? '')).toEqual({ city: 'Paris', population: 2102650 });
  });

  it('returns one choice per candidate with reasoning and mapped finish reasons', async () => {
    const { server, provider } = await serve({ json: json('two-candidates') });
    const result = await provider.chat({ ...base, n: 2, reasoningEffort: 'low' });

    expect(server.requests[0]?.body).toHaveProperty('generationConfig', {
      candidateCount: 2,
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
    });
    expect(result.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: 'Red roses bloom', reasoning: 'Roses are red' }, finishReason: 'length' },
      { index: 1, message: { role: 'assistant', content: null }, finishReason: 'content_filter' },
    ]);
    expect(result.usage).toEqual({ promptTokens: 8, completionTokens: 36, totalTokens: 44, reasoningTokens: 30 });
  });

  it('reports a blocked prompt as a content_filter error', async () => {
    const { provider } = await serve({ json: json('blocked') });
    const error = await rejection(provider.chat(base));
    expect([error.kind, error.upstreamCode, error.retryable]).toEqual(['content_filter', 'PROHIBITED_CONTENT', false]);
  });
});

describe('gemini stream', () => {
  it('passes text through chunk by chunk, then finish and the last usage', async () => {
    const { server, provider } = await serve({ chunks: chunks('text') });
    const events = await collect(await provider.stream({ ...base, stream: true }));

    expect(server.requests[0]?.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(events).toEqual([
      { type: 'meta', id: 'hXUtaZPoLLGBz7IP3-ahsQw', model: 'gemini-2.5-flash' },
      { type: 'text-delta', choice: 0, text: 'Hello' },
      { type: 'text-delta', choice: 0, text: '! How can I' },
      { type: 'text-delta', choice: 0, text: ' help you today?' },
      { type: 'finish', choice: 0, finishReason: 'stop' },
      { type: 'usage', usage: { promptTokens: 12, completionTokens: 9, totalTokens: 21 } },
    ]);
  });

  it('streams each function call as one complete tool-call delta, then its end', async () => {
    const { provider } = await serve({ chunks: chunks('tools') });
    const events = await collect(await provider.stream({ ...base, stream: true, tools: [weatherTool] }));
    expect(events.slice(1, -1)).toEqual([
      { type: 'text-delta', choice: 0, text: 'Checking the weather.' },
      { type: 'tool-call-delta', choice: 0, index: 0, id: callId, name: 'get_weather', argumentsDelta: '{"location":"Paris, France"}' },
      { type: 'tool-call-end', choice: 0, index: 0 },
      { type: 'tool-call-delta', choice: 0, index: 1, id: callId, name: 'get_time', argumentsDelta: '{}' },
      { type: 'tool-call-end', choice: 0, index: 1 },
      { type: 'finish', choice: 0, finishReason: 'tool_calls' },
    ]);
  });

  it('rejects before the first byte on 503', async () => {
    const { provider } = await serve({ status: 503, json: json('overloaded') });
    const error = await rejection(provider.stream({ ...base, stream: true }));
    expect([error.kind, error.upstreamStatus, error.retryable]).toEqual(['overloaded', 503, true]);
  });

  it('throws the classified error of an error chunk mid-stream', async () => {
    const { provider } = await serve({ chunks: chunks('stream-error') });
    const { events, error } = await drainUntilError(await provider.stream({ ...base, stream: true }));
    expect(events.map((event) => event.type)).toEqual(['meta', 'text-delta']);
    expect([error.kind, error.upstreamCode]).toEqual(['overloaded', 'UNAVAILABLE']);
  });

  it('throws when the stream ends before the candidate finished', async () => {
    const { provider } = await serve({ chunks: chunks('text').slice(0, -1) });
    const error = await rejection(collect(await provider.stream({ ...base, stream: true })));
    expect(error.message).toMatch(/ended before/);
  });

  it('throws when the connection drops mid-stream', async () => {
    const { provider } = await serve({ chunks: chunks('text'), dropAfter: 2, delayMs: 10 });
    const error = await rejection(collect(await provider.stream({ ...base, stream: true })));
    expect(error.retryable).toBe(true);
  });
});

describe('gemini errors', () => {
  it.each([
    ['overloaded', 503, 'overloaded', true],
    ['context-too-long', 400, 'context_length', true],
    ['api-key-invalid', 400, 'authentication', true],
    ['invalid-argument', 400, 'invalid_request', false],
  ] as const)('classifies %s (%i) as %s', async (name, status, kind, retryable) => {
    const { provider } = await serve({ status, json: json(name) });
    const error = await rejection(provider.chat(base));
    expect([error.kind, error.retryable, error.upstreamStatus]).toEqual([kind, retryable, status]);
  });

  it('reads the retry delay of a 429 from its RetryInfo', async () => {
    const { provider } = await serve({ status: 429, json: json('rate-limit') });
    const error = await rejection(provider.chat(base));
    expect([error.kind, error.retryAfterMs, error.upstreamCode, error.headers['retry-after']]).toEqual(['rate_limit', 34000, 'RESOURCE_EXHAUSTED', '34']);
  });
});

import { describe, expect, it } from 'vitest';
import { chatRequest } from '../test/chat-request.js';
import { fixtureFiles } from '../test/fixture-files.js';
import { collect, drainUntilError, rejection } from '../test/outcomes.js';
import { useFixtureProvider } from '../test/use-fixture-server.js';
import { type VertexSettings, createVertexProvider } from './vertex-provider.js';

const { json, chunks } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

const base = chatRequest('gemini-2.5-flash');
const weatherTool = { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } };
const PATH = '/v1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.5-flash';

const serve = useFixtureProvider((url, settings: Partial<VertexSettings> = {}) =>
  createVertexProvider({ project: 'my-project', location: 'us-central1', accessToken: 'ya29.token', baseUrl: `${url}/`, ...settings }),
);

describe('vertex gemini', () => {
  it('sends a Gemini generateContent body to the Google publisher with a bearer token', async () => {
    const { server, provider } = await serve({ json: json('gemini-text') });
    const result = await provider.chat({ ...base, n: 3, temperature: 0.3, maxTokens: 200 });

    const [sent] = server.requests;
    expect(sent?.path).toBe(`${PATH}:generateContent`);
    expect(sent?.headers.authorization).toBe('Bearer ya29.token');
    expect(sent?.headers).not.toHaveProperty('x-goog-api-key');
    // n is the pipeline's job here (multipleChoices: false), so no candidateCount.
    expect(sent?.body).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      generationConfig: { maxOutputTokens: 200, temperature: 0.3 },
    });
    expect(provider.multipleChoices).toBe(false);
    expect(result).toEqual({
      id: 'YfhHaOiZB8SVm9IPxqPZ0Qk',
      model: 'gemini-2.5-flash',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?' }, finishReason: 'stop' }],
      usage: { promptTokens: 1812, completionTokens: 58, totalTokens: 1870, cachedPromptTokens: 1024, reasoningTokens: 49 },
    });
  });

  it('asks a token provider per request, and prefers a token the call names', async () => {
    let calls = 0;
    const { server, provider } = await serve({ json: json('gemini-text') }, { accessToken: async () => `ya29.fresh-${++calls}` });
    await provider.chat(base);
    await provider.chat(base);
    await provider.chat(base, { apiKey: 'ya29.byok' });
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(['Bearer ya29.fresh-1', 'Bearer ya29.fresh-2', 'Bearer ya29.byok']);
  });

  it('fails as an authentication error of vertex when the token provider fails', async () => {
    const { server, provider } = await serve({ json: json('gemini-text') }, { accessToken: () => Promise.reject(new Error('metadata server unreachable')) });
    const error = await rejection(provider.chat(base));
    expect([error.provider, error.kind, error.message]).toEqual(['vertex', 'authentication', 'Could not get a Vertex AI access token: metadata server unreachable']);
    expect(server.requests).toHaveLength(0);
  });

  it('maps tools and returns function calls as tool calls', async () => {
    const { server, provider } = await serve({ json: json('gemini-tools') });
    const result = await provider.chat({ ...base, tools: [weatherTool], toolChoice: { name: 'get_weather' } });
    expect(server.requests[0]?.body).toMatchObject({
      tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] } }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
    });
    expect(result.choices[0]?.finishReason).toBe('tool_calls');
    expect(result.choices[0]?.message.toolCalls).toEqual([{ id: expect.stringMatching(/^call_/), name: 'get_weather', arguments: '{"location":"Paris, France"}' }]);
  });

  it('uses native JSON mode', async () => {
    const { server, provider } = await serve({ json: json('gemini-json-mode') });
    const schema = { type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false };
    const result = await provider.chat({ ...base, responseFormat: { type: 'json_schema', name: 'city', schema } });
    expect(server.requests[0]?.body).toMatchObject({ generationConfig: { responseMimeType: 'application/json', responseSchema: { type: 'object', properties: { city: { type: 'string' } } } } });
    expect(JSON.parse(result.choices[0]?.message.content ?? '')).toEqual({ city: 'Paris', population: 2102650 });
  });

  it('streams token by token over SSE', async () => {
    const { server, provider } = await serve({ chunks: chunks('gemini-text'), delayMs: 5 });
    const events = await collect(await provider.stream({ ...base, stream: true }));
    expect(server.requests[0]?.path).toBe(`${PATH}:streamGenerateContent?alt=sse`);
    expect(events).toEqual([
      { type: 'meta', id: 'LPlHaLuSCp6Vm9IPt5fpsQo', model: 'gemini-2.5-flash' },
      { type: 'text-delta', choice: 0, text: 'Hello' },
      { type: 'text-delta', choice: 0, text: '! How can I' },
      { type: 'text-delta', choice: 0, text: ' help you today?' },
      { type: 'finish', choice: 0, finishReason: 'stop' },
      { type: 'usage', usage: { promptTokens: 4, completionTokens: 9, totalTokens: 13 } },
    ]);
  });

  it('streams a function call', async () => {
    const { provider } = await serve({ chunks: chunks('gemini-tools') });
    const events = await collect(await provider.stream({ ...base, stream: true, tools: [weatherTool] }));
    expect(events.filter((event) => event.type === 'tool-call-delta')).toEqual([
      { type: 'tool-call-delta', choice: 0, index: 0, id: expect.stringMatching(/^call_/), name: 'get_weather', argumentsDelta: '{"location":"Paris, France"}' },
    ]);
    expect(events.at(-2)).toEqual({ type: 'finish', choice: 0, finishReason: 'tool_calls' });
  });

  it('throws a vertex network error when the connection drops mid-stream', async () => {
    const { provider } = await serve({ chunks: chunks('gemini-text'), dropAfter: 1, delayMs: 5 });
    const { events, error } = await drainUntilError(await provider.stream({ ...base, stream: true }));
    expect(events.map((event) => event.type)).toEqual(['meta', 'text-delta']);
    expect([error.provider, error.kind]).toEqual(['vertex', 'network']);
  });

  it('throws a vertex error when the stream ends before the candidate finished', async () => {
    const { provider } = await serve({ chunks: chunks('gemini-text').slice(0, 2) });
    const error = await rejection(collect(await provider.stream({ ...base, stream: true })));
    expect([error.provider, error.kind]).toEqual(['vertex', 'server']);
  });

  it.each([
    ['gemini-rate-limit', 429, 'rate_limit'],
    ['gemini-context-too-long', 400, 'context_length'],
    ['unauthenticated', 401, 'authentication'],
  ] as const)('classifies %s (%i) as %s', async (name, status, kind) => {
    const { provider } = await serve({ status, json: json(name) });
    const error = await rejection(provider.stream({ ...base, stream: true }));
    expect([error.provider, error.kind, error.upstreamStatus]).toEqual(['vertex', kind, status]);
  });

  it('refuses a caller fault as a vertex invalid_request', async () => {
    const { server, provider } = await serve({ json: json('gemini-text') });
    const error = await rejection(provider.chat({ ...base, messages: [{ role: 'tool', toolCallId: 'nope', content: 'x' }] }));
    expect([error.provider, error.kind]).toEqual(['vertex', 'invalid_request']);
    expect(server.requests).toHaveLength(0);
  });

  it('uses the global host for the global location', async () => {
    const seen: string[] = [];
    const provider = createVertexProvider({
      project: 'p',
      location: 'global',
      accessToken: 't',
      http: {
        request: async (request) => {
          seen.push(request.url);
          return { status: 200, headers: { get: () => null }, text: async () => JSON.stringify(json('gemini-text')), body: (async function* () {})() };
        },
      },
    });
    await provider.chat(base);
    expect(seen).toEqual(['https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/google/models/gemini-2.5-flash:generateContent']);
  });
});

import { describe, expect, it } from 'vitest';
import type { ProviderChatRequest } from '../provider.js';
import { fixtureFiles } from '../test/fixture-files.js';
import type { FixtureReply, RecordedRequest } from '../test/fixture-server.js';
import { useFixtureServer } from '../test/use-fixture-server.js';
import { createOpenAIProvider } from './openai-provider.js';

const { json } = fixtureFiles(new URL('./__fixtures__/', import.meta.url));

const request = (overrides: Partial<ProviderChatRequest> = {}): ProviderChatRequest => ({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Hi' }],
  stream: false,
  n: 1,
  includeUsage: false,
  ...overrides,
});

const startServer = useFixtureServer();

async function serve(reply: (request: RecordedRequest, index: number) => FixtureReply) {
  const server = await startServer(reply);
  return { server, provider: createOpenAIProvider({ apiKeys: ['sk-one', 'sk-two'], baseUrl: `${server.url}/v1` }) };
}

describe('openai chat (non-stream)', () => {
  it('posts to {baseUrl}/chat/completions with a bearer key and maps the answer', async () => {
    const { server, provider } = await serve(() => ({ json: json('text') }));
    const result = await provider.chat(request());
    const sent = server.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-one');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.body).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
    expect(result).toEqual({
      id: 'chatcmpl-BxQ3kLm9aT2vR7yZ1pN4cE8hW0sD5',
      model: 'gpt-4o-mini-2024-07-18',
      created: 1753781234,
      systemFingerprint: 'fp_34a54ae93c',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?' }, finishReason: 'stop' }],
      usage: { promptTokens: 1342, completionTokens: 9, totalTokens: 1351, cachedPromptTokens: 1280 },
    });
  });

  it('sends audio content parts as input_audio and reports the audio prompt tokens', async () => {
    const { server, provider } = await serve(() => ({ json: json('audio-input') }));
    const result = await provider.chat(request({ model: 'gpt-audio-mini', messages: [{ role: 'user', content: [{ type: 'text', text: 'What is asked?' }, { type: 'audio', data: 'UklGRg==', format: 'wav' }] }] }));
    expect(server.requests[0]?.body).toMatchObject({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is asked?' }, { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }] }],
    });
    expect(result.usage).toEqual({ promptTokens: 96, completionTokens: 12, totalTokens: 108, audioPromptTokens: 79 });
  });

  it('rotates keys round-robin and lets the call pick one', async () => {
    const { server, provider } = await serve(() => ({ json: json('text') }));
    await provider.chat(request());
    await provider.chat(request());
    await provider.chat(request(), { apiKey: 'sk-byok', headers: { 'x-trace': 't1' } });
    await provider.chat(request());
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer sk-one', 'Bearer sk-two', 'Bearer sk-byok', 'Bearer sk-one']);
    expect(server.requests[2]!.headers['x-trace']).toBe('t1');
  });

  it('maps every canonical field onto the wire request', async () => {
    const { server, provider } = await serve(() => ({ json: json('tool-calls') }));
    await provider.chat(
      request({
        model: 'gpt-4.1',
        n: 2,
        messages: [
          { role: 'developer', content: 'Be brief.' },
          {
            role: 'user',
            name: 'ada',
            content: [
              { type: 'text', text: 'What is in this picture and clip?' },
              { type: 'image', url: 'https://example.com/cat.png', detail: 'low' },
              { type: 'audio', data: 'UklGRg==', format: 'wav' },
              { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'a.pdf' },
            ],
          },
          { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
          { role: 'tool', toolCallId: 'call_1', content: '{"temp":21}' },
        ],
        maxTokens: 300,
        temperature: 0.2,
        topP: 0.9,
        frequencyPenalty: 0.1,
        presencePenalty: -0.1,
        stop: ['END'],
        seed: 7,
        logprobs: true,
        topLogprobs: 3,
        user: 'u-42',
        tools: [{ name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true }],
        toolChoice: { name: 'get_weather' },
        parallelToolCalls: false,
        responseFormat: { type: 'json_schema', name: 'w', schema: { type: 'object' }, strict: true },
        serviceTier: 'batch',
      }),
    );
    expect(server.requests[0]!.body).toEqual({
      model: 'gpt-4.1',
      n: 2,
      messages: [
        { role: 'developer', content: 'Be brief.' },
        {
          role: 'user',
          name: 'ada',
          content: [
            { type: 'text', text: 'What is in this picture and clip?' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
      ],
      max_tokens: 300,
      temperature: 0.2,
      top_p: 0.9,
      frequency_penalty: 0.1,
      presence_penalty: -0.1,
      stop: ['END'],
      seed: 7,
      logprobs: true,
      top_logprobs: 3,
      user: 'u-42',
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      response_format: { type: 'json_schema', json_schema: { name: 'w', schema: { type: 'object' }, strict: true } },
    });
  });

  it('sends max_completion_tokens and no sampling controls to reasoning models', async () => {
    const { server, provider } = await serve(() => ({ json: json('reasoning-length') }));
    const result = await provider.chat(request({ model: 'o4-mini', maxTokens: 64, temperature: 0.5, topP: 0.5, reasoningEffort: 'low' }));
    expect(server.requests[0]!.body).toEqual({ model: 'o4-mini', messages: [{ role: 'user', content: 'Hi' }], max_completion_tokens: 64, reasoning_effort: 'low' });
    expect(result.choices[0]!.finishReason).toBe('length');
    expect(result.usage).toEqual({ promptTokens: 25, completionTokens: 64, totalTokens: 89, reasoningTokens: 64 });

    await provider.chat(request({ model: 'gpt-5-mini-2025-08-07', maxTokens: 10, reasoning: { effort: 'high' } }));
    expect(server.requests[1]!.body).toMatchObject({ max_completion_tokens: 10, reasoning_effort: 'high' });

    // A non-reasoning OpenAI model would answer 400 to reasoning_effort: it is a hint, so it is dropped.
    await provider.chat(request({ model: 'gpt-4o-mini', maxTokens: 10, reasoningEffort: 'high', temperature: 0.5 }));
    expect(server.requests[2]!.body).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 10, temperature: 0.5 });
  });

  it('maps tool calls', async () => {
    const { provider } = await serve(() => ({ json: json('tool-calls') }));
    const result = await provider.chat(request({ tools: [{ name: 'get_weather' }] }));
    expect(result.choices[0]).toEqual({
      index: 0,
      finishReason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        toolCalls: [
          { id: 'call_9bXv3mQ1sW7cZp2Hk4Tn8Ly0', name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
          { id: 'call_2hFe6Jd0Rq5Ua8Wm1Gx3Vo9C', name: 'get_weather', arguments: '{"city":"Tokyo","unit":"celsius"}' },
        ],
      },
    });
  });

  it('sends JSON mode and returns the JSON text', async () => {
    const { server, provider } = await serve(() => ({ json: json('json-mode') }));
    const result = await provider.chat(request({ responseFormat: { type: 'json_object' } }));
    expect(server.requests[0]!.body).toMatchObject({ response_format: { type: 'json_object' } });
    expect(JSON.parse(result.choices[0]!.message.content!)).toEqual({ name: 'Ada Lovelace', born: 1815 });
  });

  it('maps a refusal', async () => {
    const { provider } = await serve(() => ({ json: json('refusal') }));
    const result = await provider.chat(request());
    expect(result.choices[0]!.message).toEqual({ role: 'assistant', content: null, refusal: "I'm sorry, I can't help with that request." });
    expect(result.usage).toEqual({ promptTokens: 40, completionTokens: 10, totalTokens: 50 });
  });

  it('serves a compatible vendor with its own id, base URL and quirks', async () => {
    const server = await startServer(() => ({ json: json('text') }));
    const mistral = createOpenAIProvider({
      id: 'mistral',
      apiKeys: ['m-key'],
      baseUrl: `${server.url}/v1/`,
      compatibility: { seedField: 'random_seed', unsupported: ['user'] },
    });
    expect(mistral.id).toBe('mistral');
    await mistral.chat(request({ model: 'mistral-small-latest', seed: 3, user: 'u', messages: [{ role: 'developer', content: 'x' }] }));
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
    expect(server.requests[0]!.body).toEqual({ model: 'mistral-small-latest', messages: [{ role: 'system', content: 'x' }], random_seed: 3 });
  });

  it('passes reasoning_effort through to compatible vendors, which decide per model', async () => {
    const server = await startServer(() => ({ json: json('text') }));
    const groq = createOpenAIProvider({ id: 'groq', apiKeys: ['g'], baseUrl: `${server.url}/openai/v1` });
    await groq.chat(request({ model: 'openai/gpt-oss-120b', reasoningEffort: 'medium', maxTokens: 5 }));
    expect(server.requests[0]!.path).toBe('/openai/v1/chat/completions');
    expect(server.requests[0]!.body).toMatchObject({ reasoning_effort: 'medium', max_tokens: 5 });
  });

  it('sends no Authorization header when keyless (local servers)', async () => {
    const server = await startServer(() => ({ json: json('text') }));
    const ollama = createOpenAIProvider({ id: 'ollama', apiKeys: [], baseUrl: `${server.url}/v1` });
    await ollama.chat(request());
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });
});

import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway, upstreamProviders } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

interface WithSvc {
  svc_metadata?: Record<string, unknown>;
}

const tools: OpenAI.Responses.FunctionTool[] = [
  { type: 'function', name: 'get_weather', strict: true, parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
];

/**
 * The same `client.responses` scenarios against two backends: the built-in mock provider, and a
 * provider that does not speak the Responses API (Anthropic, over the mock upstream), so the
 * translation Responses -> canonical chat -> Anthropic -> Responses is exercised end to end.
 */
const backends = [
  { name: 'mock provider', provider: 'mock', env: async () => ({ SVC_MOCK_PROVIDER: '1' }), model: (_: Gateway) => 'mock/mock-value' },
  {
    name: 'Anthropic via mock upstream',
    provider: 'anthropic',
    env: async (upstream: MockUpstream) => ({ SVC_CACHE_TTL_SECS: '0', ANTHROPIC_API_KEY: 'sk-upstream-anthropic', ANTHROPIC_BASE_URL: upstream.url }),
    model: (gateway: Gateway) => gateway.runtime.catalog.list({ provider: 'anthropic', kind: 'chat' })[0]!.id,
  },
] as const;

describe.each(backends)('openai SDK client.responses against the gateway ($name)', (backend) => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  let client: OpenAI;
  let model: string;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 12 });
    gateway = await startGateway(await backend.env(upstream));
    client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
    model = backend.model(gateway);
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  it('answers non-stream with output_text, usage and svc_metadata', async () => {
    const { data, response } = await client.responses.create({ model, input: 'Say hello to the gateway', instructions: 'Be brief.' }).withResponse();
    expect(data.object).toBe('response');
    expect(data.id).toMatch(/^resp_/);
    expect(data.status).toBe('completed');
    expect(data.output_text.length).toBeGreaterThan(0);
    expect(data.usage!.total_tokens).toBe(data.usage!.input_tokens + data.usage!.output_tokens);
    expect((data as WithSvc).svc_metadata).toMatchObject({ requested_model: model, provider: backend.provider });
    if (backend.provider === 'anthropic') expect(upstream.stats().lastRequest!.path).toBe('/v1/messages');
    expect(response.headers.get('x-svc-provider')).toBeTruthy();
  });

  it('streams through responses.stream() into a final response', async () => {
    const stream = client.responses.stream({ model, input: [{ role: 'user', content: [{ type: 'input_text', text: 'Tell me a story' }] }] });
    const deltas: string[] = [];
    const types: string[] = [];
    stream.on('event', (event) => types.push(event.type));
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(deltas.length).toBeGreaterThan(3);
    expect(final.output_text).toBe(deltas.join(''));
    expect(final.usage!.output_tokens).toBeGreaterThan(0);
    expect((final as WithSvc).svc_metadata).toBeTruthy();
  });

  it('streams with create({stream: true})', async () => {
    const stream = await client.responses.create({ model, input: 'hi', stream: true });
    let completed: OpenAI.Responses.Response | undefined;
    let text = '';
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(completed!.status).toBe('completed');
  });

  it('calls functions, and takes the result back as function_call_output', async () => {
    const first = await client.responses.create({ model, input: 'Weather in Paris?', tools, tool_choice: 'required' });
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', call_id: expect.any(String) });
    expect(JSON.parse(call!.type === 'function_call' ? call!.arguments : '')).toHaveProperty('city');

    const streamed = await client.responses.stream({ model, input: 'Weather in Oslo?', tools, tool_choice: { type: 'function', name: 'get_weather' } }).finalResponse();
    const streamedCall = streamed.output.find((item) => item.type === 'function_call');
    expect(streamedCall?.type === 'function_call' && JSON.parse(streamedCall.arguments)).toHaveProperty('city');

    const second = await client.responses.create({
      model,
      tools,
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        ...first.output.filter((item) => item.type === 'function_call'),
        { type: 'function_call_output', call_id: call!.type === 'function_call' ? call!.call_id : '', output: '{"temp_c":21}' },
      ],
    });
    expect(second.status).toBe('completed');
    expect(second.output_text.length).toBeGreaterThan(0);
  });

  it('answers text.format json_schema with JSON the SDK parses', async () => {
    const answer = await client.responses.parse({
      model,
      input: 'A user record',
      text: { format: { type: 'json_schema', name: 'user', strict: true, schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false } } },
    });
    expect(answer.output_parsed).toHaveProperty('name');
  });

  it('keeps a response: retrieve, continue with previous_response_id (earlier turns, not the earlier instructions), delete', async () => {
    // Proxy mode: no memory stage adds to what the provider receives.
    const proxy = { headers: { 'x-intelligence-mode': 'proxy' } };
    const first = await client.responses.create({ model, input: 'My name is Ada.', instructions: 'Answer in one line.', store: true }, proxy);
    expect(first).toMatchObject({ store: true });
    const retrieved = await client.responses.retrieve(first.id);
    expect(retrieved).toMatchObject({ id: first.id, object: 'response', status: 'completed', instructions: 'Answer in one line.', output: first.output, usage: first.usage });
    expect(retrieved.output_text).toBe(first.output_text);

    const second = await client.responses.create({ model, input: 'What is my name?', previous_response_id: first.id }, proxy);
    expect(second).toMatchObject({ status: 'completed', previous_response_id: first.id, instructions: null });
    if (backend.provider === 'anthropic') {
      const sent = upstream.stats().lastRequest!.body as { system?: unknown; messages: { role: string; content: unknown }[] };
      expect(sent.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
      expect(JSON.stringify(sent.messages)).toContain('My name is Ada.');
      expect(JSON.stringify(sent.messages)).toContain(JSON.stringify(first.output_text).slice(1, -1));
      expect(sent.system).toBeUndefined();
    } else {
      const alone = await client.responses.create({ model, input: 'What is my name?', store: false }, proxy);
      expect(second.usage!.input_tokens).toBeGreaterThan(alone.usage!.input_tokens);
    }

    const streamed = await client.responses.stream({ model, input: 'And a story?', previous_response_id: second.id }, proxy).finalResponse();
    expect((await client.responses.retrieve(streamed.id)).output_text).toBe(streamed.output_text);

    const deleted = await client.responses.delete(first.id).asResponse();
    expect(await deleted.json()).toEqual({ id: first.id, object: 'response', deleted: true });
    await expect(client.responses.retrieve(first.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(client.responses.delete(first.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(client.responses.create({ model, input: 'x', previous_response_id: first.id })).rejects.toMatchObject({ status: 404, param: 'previous_response_id' });
    // What was kept of the second response does not depend on the first one still existing.
    expect((await client.responses.retrieve(second.id)).previous_response_id).toBe(first.id);
  });

  it('maps errors to the SDK classes naming the field', async () => {
    await expect(client.responses.create({ model, input: 'x', temperature: 2.5 })).rejects.toMatchObject({ status: 400, param: 'temperature', type: 'invalid_request_error' });
    await expect(client.responses.create({ model, input: 'x', previous_response_id: 'resp_123' })).rejects.toMatchObject({ status: 404, param: 'previous_response_id' });
    const bad = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: 'sk-svc-wrong', maxRetries: 0 });
    await expect(bad.responses.create({ model, input: 'x' })).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  // Only the upstream provider can break a stream mid-way (the built-in mock never fails): registered for it alone, not skipped for the other.
  if (backend.provider === 'anthropic')
    it('fails a stream that breaks after the first byte, never completing', async () => {
    upstream.configure({ fault: 'drop-mid-stream', tokens: 12 });
    try {
      const types: string[] = [];
      const stream = client.responses.stream({ model, input: 'Tell me a story' });
      stream.on('event', (event) => types.push(event.type));
      await expect(stream.finalResponse()).rejects.toThrow();
      expect(types[0]).toBe('response.created');
      expect(types).toContain('response.failed');
      expect(types).not.toContain('response.completed');
    } finally {
      upstream.configure({ fault: undefined });
    }
  });
});

/** previous_response_id is a chat-messages concern: a conversation kept from one provider continues on another. */
describe('openai SDK previous_response_id across OpenAI-, Gemini- and Anthropic-backed models', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  let client: OpenAI;
  const proxy = { headers: { 'x-intelligence-mode': 'proxy' } };

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 12 });
    gateway = await startGateway(upstreamProviders(upstream.url));
    client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  const modelOf = (provider: string) => gateway.runtime.catalog.list({ provider, kind: 'chat' })[0]!.id;

  it('carries each turn to the next provider, never the earlier instructions', async () => {
    let previous: OpenAI.Responses.Response | undefined;
    const said: string[] = [];
    for (const [turn, provider] of ['openai', 'gemini', 'anthropic', 'openai'].entries()) {
      const input = `Turn ${turn}: remember the word kumquat${turn}.`;
      const instructions = `Secret instructions number ${turn}.`;
      const answer = await client.responses.create({ model: modelOf(provider), input, instructions, ...(previous ? { previous_response_id: previous.id } : {}) }, proxy);
      expect((answer as WithSvc).svc_metadata).toMatchObject({ provider });
      expect(answer.output_text.length).toBeGreaterThan(0);
      const sent = JSON.stringify(upstream.stats().lastRequest!.body);
      for (const earlier of said) expect(sent).toContain(earlier);
      expect(sent).toContain(input);
      expect(sent).toContain(instructions);
      for (let before = 0; before < turn; before++) expect(sent).not.toContain(`Secret instructions number ${before}.`);
      said.push(input, JSON.stringify(answer.output_text).slice(1, -1));
      previous = answer;
    }
  });
});

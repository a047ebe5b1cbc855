import Anthropic from '@anthropic-ai/sdk';
import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import Anthropic1 from 'anthropic-sdk-1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;
type ErrorClass = abstract new (...args: never[]) => Error;

interface Sdk {
  name: string;
  /** 0.x sends the key as `x-api-key`, 1.x as `Authorization: Bearer`; both must work. */
  create(baseURL: string, apiKey: string): Anthropic;
  BadRequestError: ErrorClass;
  AuthenticationError: ErrorClass;
  NotFoundError: ErrorClass;
}

// The 1.x client is driven through the 0.x types: the wire format of what these tests use
// (create, stream, tools) is the same in both, only the headers differ.
const sdks: Sdk[] = [
  { name: '@anthropic-ai/sdk 0.137', create: (baseURL, apiKey) => new Anthropic({ baseURL, apiKey, maxRetries: 0 }), BadRequestError: Anthropic.BadRequestError, AuthenticationError: Anthropic.AuthenticationError, NotFoundError: Anthropic.NotFoundError },
  {
    name: '@anthropic-ai/sdk 1.12',
    create: (baseURL, apiKey) => new Anthropic1({ baseURL, apiKey, maxRetries: 0 }) as unknown as Anthropic,
    BadRequestError: Anthropic1.BadRequestError,
    AuthenticationError: Anthropic1.AuthenticationError,
    NotFoundError: Anthropic1.NotFoundError,
  },
];

const tools: Anthropic.Tool[] = [
  { name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
];

interface Served {
  /** The model to ask for. */
  model: string;
  /** The provider `svc_metadata` names. */
  provider: string;
}

/** The same client-visible behaviour whatever provider serves the request. */
function messagesSuite(sdk: Sdk, served: Served, url: () => string) {
  const client = () => sdk.create(url(), masterKey);

  it('answers a non-stream message with text, end_turn, usage and svc_metadata', async () => {
    const { data, response } = await client()
      .messages.create({ model: served.model, max_tokens: 256, system: 'Be brief.', messages: [{ role: 'user', content: `Say hello to the gateway from ${sdk.name}` }] })
      .withResponse();
    expect(data.id).toMatch(/^msg_/);
    expect(data).toMatchObject({ type: 'message', role: 'assistant', stop_reason: 'end_turn', stop_sequence: null });
    expect(data.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/\S/) });
    // Cache reads are reported apart from input_tokens, as Anthropic does.
    expect(data.usage.input_tokens + (data.usage.cache_read_input_tokens ?? 0)).toBeGreaterThan(0);
    expect(data.usage.output_tokens).toBeGreaterThan(0);
    expect((data as { svc_metadata?: Record<string, unknown> }).svc_metadata).toMatchObject({ provider: served.provider });
    expect(response.headers.get('x-svc-request-id')).toMatch(/^req_/);
    // Served by Node from the answer's own header record: Anthropic's request-id and the JSON type are on it.
    expect(response.headers.get('request-id')).toBe(response.headers.get('x-svc-request-id'));
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('streams through the SDK helper to a final message', async () => {
    const stream = client().messages.stream({ model: served.model, max_tokens: 256, messages: [{ role: 'user', content: 'Tell me a story about streams' }] });
    const deltas: string[] = [];
    stream.on('text', (text) => deltas.push(text));
    const final = await stream.finalMessage();
    expect(deltas.length).toBeGreaterThan(1);
    expect(final.content).toEqual([expect.objectContaining({ type: 'text', text: deltas.join('') })]);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage.output_tokens).toBeGreaterThan(0);
  });

  it('round-trips a tool call: tool_use out, tool_result back in, non-stream and stream', async () => {
    const ask: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
    const first = await client().messages.create({ model: served.model, max_tokens: 256, messages: [ask], tools, tool_choice: { type: 'any' } });
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content.find((block) => block.type === 'tool_use');
    expect(call).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: expect.any(String) } });

    const streamed = await client().messages.stream({ model: served.model, max_tokens: 256, messages: [ask], tools, tool_choice: { type: 'tool', name: 'get_weather' } }).finalMessage();
    expect(streamed.stop_reason).toBe('tool_use');
    expect(streamed.content.find((block) => block.type === 'tool_use')).toMatchObject({ name: 'get_weather', input: { city: expect.any(String) } });

    const toolUse = call as Anthropic.ToolUseBlock;
    const answer = await client().messages.create({
      model: served.model,
      max_tokens: 256,
      tools,
      messages: [ask, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'Sunny, 21 C' }] }],
    });
    expect(answer.stop_reason).toBe('end_turn');
    expect(answer.content[0]).toMatchObject({ type: 'text' });
  });

  it('maps errors to the SDK classes with the status', async () => {
    const bad = sdk.create(url(), 'sk-svc-wrong');
    await expect(bad.messages.create({ model: served.model, max_tokens: 16, messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(sdk.AuthenticationError);
    const tooHot = client().messages.create({ model: served.model, max_tokens: 16, temperature: 1.5, messages: [{ role: 'user', content: 'x' }] });
    await expect(tooHot).rejects.toBeInstanceOf(sdk.BadRequestError);
    await expect(client().messages.create({ model: served.model, max_tokens: 16, messages: [] })).rejects.toMatchObject({
      status: 400,
      error: { type: 'error', error: { type: 'invalid_request_error', param: 'messages' } },
    });
  });

  it('counts tokens with messages.countTokens, and refuses an unknown model as a NotFoundError (404 not_found_error)', async () => {
    const counted = await client().messages.countTokens({ model: served.model, system: 'Be brief.', messages: [{ role: 'user', content: 'How many tokens is this?' }], tools });
    expect(counted.input_tokens).toBeGreaterThan(10);
    await expect(client().messages.countTokens({ model: 'nobody/nothing', messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(sdk.NotFoundError);
    const unknown = client().messages.create({ model: 'nobody/nothing', max_tokens: 16, messages: [{ role: 'user', content: 'x' }] });
    await expect(unknown).rejects.toBeInstanceOf(sdk.NotFoundError);
    await expect(unknown).rejects.toMatchObject({ status: 404, error: { type: 'error', error: { type: 'not_found_error', code: 'model_not_found', param: 'model' } } });
  });
}

describe('anthropic SDKs against the gateway (mock provider)', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway({ SVC_MOCK_PROVIDER: '1' });
  });
  afterAll(async () => {
    await gateway?.stop();
  });
  for (const sdk of sdks) describe(sdk.name, () => messagesSuite(sdk, { model: 'mock/mock-value', provider: 'mock' }, () => gateway.inferenceUrl));
});

describe('anthropic SDKs against the gateway (OpenAI model on the mock upstream)', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 12 });
    gateway = await startGateway({ SVC_CACHE_TTL_SECS: '0', OPENAI_API_KEY: 'sk-upstream-openai', OPENAI_BASE_URL: `${upstream.url}/v1` });
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });
  for (const sdk of sdks) describe(sdk.name, () => messagesSuite(sdk, { model: 'openai/gpt-4o-mini', provider: 'openai' }, () => gateway.inferenceUrl));

  it('ends a stream that breaks after the first byte with an error event, never message_stop', async () => {
    upstream.configure({ fault: 'drop-mid-stream', tokens: 12 });
    try {
      const response = await fetch(`${gateway.inferenceUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': masterKey, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'openai/gpt-4o-mini', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Break please' }] }),
      });
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toMatch(/^event: message_start$/m);
      expect(text).toMatch(/^event: error\ndata: \{"type":"error","error":\{"type":"api_error"/m);
      expect(text).not.toContain('message_stop');
      for (const sdk of sdks) {
        const stream = sdk.create(gateway.inferenceUrl, masterKey).messages.stream({ model: 'openai/gpt-4o-mini', max_tokens: 64, messages: [{ role: 'user', content: `Break ${sdk.name}` }] });
        await expect(stream.finalMessage()).rejects.toMatchObject({ status: undefined, error: { type: 'error', error: { type: 'api_error' } } });
      }
    } finally {
      upstream.configure({ fault: undefined });
    }
  });

  it('sends the OpenAI wire upstream, system prompt and tool result included', async () => {
    const client = sdks[0]!.create(gateway.inferenceUrl, masterKey);
    await client.messages.create({
      model: 'openai/gpt-4o-mini',
      max_tokens: 64,
      system: 'Be brief.',
      tools,
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Rain' }] },
      ],
    }, { headers: { 'x-intelligence-mode': 'cache' } }); // cache mode: no memory context is added to the wire checked here
    const sent = upstream.stats().lastRequest!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.body).toMatchObject({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
        { role: 'tool', tool_call_id: 'toolu_1', content: 'Rain' },
      ],
    });
  });
});

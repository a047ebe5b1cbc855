import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

interface WithSvc {
  svc_metadata?: Record<string, unknown>;
}

/** The official SDK against the started gateway, answering from the built-in mock provider. */
describe('openai SDK against the gateway (mock provider)', () => {
  let gateway: Gateway;
  let client: OpenAI;

  beforeAll(async () => {
    gateway = await startGateway({ SVC_MOCK_PROVIDER: '1', SVC_MAX_BODY_BYTES: '65536' });
    client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('answers a non-stream chat completion with svc_metadata and the spec headers', async () => {
    const { data, response, request_id } = await client.chat.completions
      .create({ model: 'svc/auto', messages: [{ role: 'user', content: 'Say hello to the gateway' }] })
      .withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.choices[0]!.message.content).toBeTruthy();
    expect(data.choices[0]!.finish_reason).toBe('stop');
    expect(data.usage!.total_tokens).toBe(data.usage!.prompt_tokens + data.usage!.completion_tokens);
    const meta = (data as WithSvc).svc_metadata!;
    expect(meta).toMatchObject({ requested_model: 'svc/auto', provider: 'mock', intelligence_mode: 'full', cost_attribution: 'svc', decision_source: 'Router' });
    expect(meta.cost_usd).toBeGreaterThan(0);
    expect(meta.baseline_cost_usd).toBeGreaterThan(0);
    expect(request_id).toBe(meta.request_id);
    for (const header of ['x-svc-request-id', 'x-svc-tier-used', 'x-svc-lane-used', 'x-svc-provider', 'x-svc-model', 'x-svc-cost-usd', 'x-svc-input-tokens', 'x-svc-output-tokens', 'x-svc-latency-breakdown', 'x-svc-audit-id', 'x-svc-org-id']) {
      expect(response.headers.get(header), header).toBeTruthy();
    }
    expect(response.headers.get('x-svc-cache-hit')).toBe('false');
    expect(response.headers.get('x-svc-intelligence-mode')).toBe('full');
  });

  it('streams token by token, with usage and metadata at the end', async () => {
    const stream = await client.chat.completions.create({
      model: 'mock/mock-value',
      messages: [{ role: 'user', content: 'Tell me a long story about streams' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const contents: string[] = [];
    let usage: OpenAI.CompletionUsage | undefined;
    let finish: string | null = null;
    let meta: Record<string, unknown> | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) contents.push(choice.delta.content);
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (chunk.usage) usage = chunk.usage;
      meta ??= (chunk as WithSvc).svc_metadata;
    }
    expect(contents.length).toBeGreaterThan(3);
    expect(finish).toBe('stop');
    expect(usage!.completion_tokens).toBeGreaterThan(0);
    expect(meta).toMatchObject({ provider: 'mock', decision_source: 'Pinned' });
  });

  it('runs a stream through the SDK helper that checks every chunk rule', async () => {
    const final = await client.chat.completions
      .stream({ model: 'mock/mock-speed', messages: [{ role: 'user', content: 'hi' }], n: 2 })
      .finalChatCompletion();
    expect(final.choices).toHaveLength(2);
    expect(final.choices.every((c) => c.finish_reason === 'stop')).toBe(true);
  });

  it('calls tools, non-stream and stream', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
    ];
    const plain = await client.chat.completions.create({ model: 'svc/auto', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools, tool_choice: 'required' });
    const call = plain.choices[0]!.message.tool_calls![0]!;
    expect(plain.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call.type === 'function' && call.function.name).toBe('get_weather');
    expect(JSON.parse(call.type === 'function' ? call.function.arguments : '')).toHaveProperty('city');

    const streamed = await client.chat.completions
      .stream({ model: 'mock/mock-value', messages: [{ role: 'user', content: 'Weather in Oslo?' }], tools, tool_choice: { type: 'function', function: { name: 'get_weather' } } })
      .finalChatCompletion();
    const streamedCall = streamed.choices[0]!.message.tool_calls![0]!;
    expect(streamed.choices[0]!.finish_reason).toBe('tool_calls');
    expect(streamedCall.type === 'function' && JSON.parse(streamedCall.function.arguments)).toHaveProperty('city');
  });

  it('answers JSON mode with valid JSON', async () => {
    const answer = await client.chat.completions.create({ model: 'svc/auto', messages: [{ role: 'user', content: 'A user record' }], response_format: { type: 'json_object' } });
    expect(() => JSON.parse(answer.choices[0]!.message.content!)).not.toThrow();
  });

  it('maps errors to the SDK classes with the spec codes', async () => {
    const bad = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: 'sk-svc-wrong', maxRetries: 0 });
    await expect(bad.chat.completions.create({ model: 'svc/auto', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      status: 401,
      code: 'invalid_api_key',
      type: 'authentication_error',
    });
    await expect(client.chat.completions.create({ model: 'svc/auto', messages: [{ role: 'user', content: 'x' }], temperature: 2.5 })).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(client.chat.completions.create({ model: 'svc/auto', messages: [{ role: 'user', content: 'x' }], temperature: 2.5 })).rejects.toMatchObject({ param: 'temperature', type: 'invalid_request_error' });
    // An unknown model is OpenAI's 404 model_not_found: the SDK's NotFoundError.
    const unknown = client.chat.completions.create({ model: 'nobody/nothing', messages: [{ role: 'user', content: 'x' }] });
    await expect(unknown).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(unknown).rejects.toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    await expect(client.chat.completions.create({ model: 'svc/auto', messages: [] })).rejects.toMatchObject({ status: 400, param: 'messages' });
  });

  it('lists and retrieves models, percent-encoded slugs included', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(['mock/mock-value', 'svc/auto']));
    expect(ids.some((id) => id.startsWith('openai/'))).toBe(false); // no key configured for openai
    const model = await client.models.retrieve('mock/mock-value');
    expect(model).toMatchObject({ id: 'mock/mock-value', object: 'model', owned_by: 'mock' });
    await expect(client.models.retrieve('openai/gpt-4o-mini')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('reads bodies on the wire with the size limit, declared or chunked (413)', async () => {
    const url = `${gateway.inferenceUrl}/v1/chat/completions`;
    const headers = { authorization: `Bearer ${masterKey}`, 'content-type': 'application/json' };
    const big = JSON.stringify({ model: 'svc/auto', messages: [{ role: 'user', content: 'x'.repeat(70_000) }] });
    const declared = await fetch(url, { method: 'POST', headers, body: big });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
    const chunked = await fetch(url, {
      method: 'POST',
      headers,
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode(big.slice(i * 7_100, (i + 1) * 7_100)));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const ok = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ model: 'svc/auto', messages: [{ role: 'user', content: 'small' }] }) });
    expect(ok.status).toBe(200);
    const malformed = await fetch(url, { method: 'POST', headers, body: '{"model":' });
    expect(malformed.status).toBe(400);
  });
});

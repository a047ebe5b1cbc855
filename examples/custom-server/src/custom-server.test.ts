import type { AddressInfo } from 'node:net';
import { type Runtime, createRuntime, parseEnv } from '@svc/server';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomServer } from './custom-server.js';

const masterKey = 'sk-svc-example-master-key-0123456789';

/** The official OpenAI SDK against the pipeline behind a plain node:http server, on the embedded default. */
describe('the pipeline embedded in a node:http server', () => {
  let runtime: Runtime;
  let server: ReturnType<typeof createCustomServer>;
  let client: OpenAI;

  beforeAll(async () => {
    runtime = await createRuntime(parseEnv({ SVC_DATA_DIR: 'memory://', SVC_SENTENCE_ENCODER: 'hashed', SVC_MOCK_PROVIDER: '1', SVC_MASTER_KEY: masterKey, LOG_LEVEL: 'silent' }));
    server = createCustomServer(runtime);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: masterKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await runtime?.close();
  });

  it('answers a JSON chat completion routed by the pipeline, with svc_metadata', async () => {
    const { data, response } = await client.chat.completions.create({ model: 'svc/auto', messages: [{ role: 'user', content: 'Say hello from a custom server' }] }).withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.choices[0]!.message.content).toBeTruthy();
    expect((data as { svc_metadata?: Record<string, unknown> }).svc_metadata).toMatchObject({ requested_model: 'svc/auto', provider: 'mock', decision_source: 'Router' });
    expect(response.headers.get('x-svc-provider')).toBe('mock');
  });

  it('streams chunks ending with usage, like the gateway itself', async () => {
    const stream = await client.chat.completions.create({ model: 'svc/auto', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Stream a short greeting' }] });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(usage?.total_tokens).toBeGreaterThan(0);
  });

  it('answers errors in the OpenAI shape the SDK maps to its error classes', async () => {
    const stranger = new OpenAI({ baseURL: client.baseURL, apiKey: 'sk-svc-not-a-key-000000000000', maxRetries: 0 });
    await expect(stranger.chat.completions.create({ model: 'svc/auto', messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(client.chat.completions.create({ model: 'svc/auto', messages: [] })).rejects.toMatchObject({ status: 400, type: 'invalid_request_error', param: 'messages' });
  });
});

/**
 * Feeds the encoders' output through the real openai SDK (6.49.0) over a local HTTP server:
 * `ChatCompletionStream` is the strictest consumer of chat chunks there is.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayError, type StreamEvent, type SvcMetadata } from '@svc/core';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatChunkEncoder } from './chat-chunk-encoder.js';
import { encodeChatCompletion } from './encode-chat-response.js';

let server: Server;
let client: OpenAI;
let next: { contentType: string; body: string } = { contentType: 'text/plain', body: '' };

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': next.contentType });
      response.end(next.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new OpenAI({ apiKey: 'sk-test', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

const svcMetadata = { request_id: 'req-1', provider: 'openai', tier: 'T2', intelligence_mode: 'proxy' } as SvcMetadata;
const usage = { promptTokens: 7, completionTokens: 3, totalTokens: 10 };

function serveStream(events: StreamEvent[], n = 1, finish: (encoder: ChatChunkEncoder) => string) {
  const encoder = new ChatChunkEncoder({ id: 'chatcmpl-sdk', created: 1700000000, model: 'gpt-4o', includeUsage: true, n });
  let body = encoder.start() + encoder.keepAlive();
  for (const event of events) body += encoder.event(event);
  next = { contentType: 'text/event-stream', body: body + finish(encoder) };
}

const params = {
  model: 'svc/auto',
  messages: [{ role: 'user' as const, content: 'hi' }],
  stream_options: { include_usage: true },
};

describe('the openai SDK accepts what the encoders produce', () => {
  it('finalises a text stream with usage and svc_metadata', async () => {
    serveStream(
      [
        { type: 'text-delta', choice: 0, text: 'Hello' },
        { type: 'text-delta', choice: 0, text: ', world' },
        { type: 'finish', choice: 0, finishReason: 'stop' },
        { type: 'usage', usage },
      ],
      1,
      (encoder) => encoder.end(svcMetadata),
    );
    const completion = await client.chat.completions.stream(params).finalChatCompletion();
    expect(completion.choices).toHaveLength(1);
    expect(completion.choices[0]).toMatchObject({
      index: 0,
      finish_reason: 'stop',
      message: { role: 'assistant', content: 'Hello, world', refusal: null },
    });
    expect(completion.usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
    expect((completion as unknown as { svc_metadata: unknown }).svc_metadata).toEqual(svcMetadata);
  });

  it('finalises streamed tool calls even when the provider never sent a finish', async () => {
    serveStream(
      [
        { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'weather', argumentsDelta: '{"ci' },
        { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: 'ty":"Oslo"}' },
        { type: 'tool-call-delta', choice: 0, index: 1, id: 'call_2', name: 'time', argumentsDelta: '{}' },
      ],
      1,
      (encoder) => encoder.end(),
    );
    const completion = await client.chat.completions.stream(params).finalChatCompletion();
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(completion.choices[0]!.message.tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
      { id: 'call_2', type: 'function', function: { name: 'time', arguments: '{}' } },
    ]);
  });

  it('finalises n = 2 when the provider only produced one choice', async () => {
    serveStream([{ type: 'text-delta', choice: 0, text: 'only one' }], 2, (encoder) => encoder.end(svcMetadata));
    const completion = await client.chat.completions.stream({ ...params, n: 2 }).finalChatCompletion();
    expect(completion.choices.map((choice) => [choice.index, choice.message.content, choice.finish_reason])).toEqual([
      [0, 'only one', 'stop'],
      [1, null, 'stop'],
    ]);
  });

  it('surfaces a mid-stream error as an APIError instead of a complete answer', async () => {
    const error = new GatewayError({ status: 502, type: 'upstream_error', code: 'provider_error', message: 'Upstream died.' });
    serveStream([{ type: 'text-delta', choice: 0, text: 'partial' }], 1, (encoder) => encoder.error(error));
    const failure = await client.chat.completions
      .stream(params)
      .finalChatCompletion()
      .catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(failure).toMatchObject({ message: 'Upstream died.', code: 'provider_error', type: 'upstream_error' });
  });

  it('yields every chunk to a plain `create({stream: true})` loop', async () => {
    serveStream([{ type: 'text-delta', choice: 0, text: 'a' }, { type: 'usage', usage }], 1, (encoder) =>
      encoder.end(),
    );
    const stream = await client.chat.completions.create({ ...params, stream: true });
    const seen: string[] = [];
    for await (const chunk of stream) {
      seen.push(chunk.choices[0]?.delta.content ?? chunk.choices[0]?.finish_reason ?? `usage:${chunk.usage?.total_tokens}`);
    }
    expect(seen).toEqual(['', 'a', 'stop', 'usage:10']);
  });

  it('parses a non-stream completion, replicated choices included', async () => {
    const { body } = encodeChatCompletion(
      {
        model: 'gpt-4o',
        choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finishReason: 'stop' }],
        usage,
      },
      { id: 'chatcmpl-x', created: 1700000000, model: 'gpt-4o', svcMetadata, n: 2 },
    );
    next = { contentType: 'application/json', body: JSON.stringify(body) };
    const completion = await client.chat.completions.create({ ...params, n: 2 });
    expect(completion.choices.map((choice) => [choice.index, choice.message.content])).toEqual([
      [0, 'hi'],
      [1, 'hi'],
    ]);
    expect(completion.usage?.total_tokens).toBe(10);
  });
});

/**
 * The stream encoder's frames, checked one by one and then fed through the real openai SDK
 * (`responses.stream`, whose ResponseStream/accumulator enforce the event rules).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ChatRequest, GatewayError, type StreamEvent, type SvcMetadata } from '@svc/core';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseMeta } from './response-shell.js';
import { ResponseStreamEncoder } from './response-stream-encoder.js';

const request: ChatRequest = { model: 'svc/auto', messages: [{ role: 'user', content: 'hi' }], stream: true, n: 1, includeUsage: true };
const meta: ResponseMeta = { id: 'resp_s', createdAt: 1_700_000_000, model: 'gpt-4o', request, echo: { instructions: null, store: false, previous_response_id: null } };
const usage = { promptTokens: 7, completionTokens: 3, totalTokens: 10 };
const svcMetadata = { request_id: 'req-1', provider: 'mock' } as SvcMetadata;

interface Event {
  type: string;
  sequence_number: number;
  [key: string]: unknown;
}

function encode(events: StreamEvent[], finish: (encoder: ResponseStreamEncoder) => string = (e) => e.end(svcMetadata)): string {
  const encoder = new ResponseStreamEncoder(meta);
  let body = encoder.start() + encoder.keepAlive();
  for (const event of events) body += encoder.event(event);
  return body + finish(encoder);
}

function parse(text: string): Event[] {
  return text
    .split('\n\n')
    .filter((frame) => frame !== '' && !frame.startsWith(':'))
    .map((frame) => {
      const [eventLine, dataLine, ...rest] = frame.split('\n');
      expect(rest).toEqual([]);
      const data = JSON.parse(dataLine!.slice('data: '.length)) as Event;
      expect(eventLine).toBe(`event: ${data.type}`);
      return data;
    });
}

const text = (t: string): StreamEvent => ({ type: 'text-delta', choice: 0, text: t });
const call = (index: number, argumentsDelta: string, id?: string, name?: string): StreamEvent => ({ type: 'tool-call-delta', choice: 0, index, id, name, argumentsDelta });

describe('ResponseStreamEncoder', () => {
  it('emits the SDK sequence for text with growing sequence numbers', () => {
    const events = parse(encode([text('Hel'), text('lo'), { type: 'finish', choice: 0, finishReason: 'stop' }, { type: 'usage', usage }]));
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events[6]).toMatchObject({ text: 'Hello', output_index: 0, content_index: 0 });
    expect(events.at(-1)).toMatchObject({
      response: { id: 'resp_s', status: 'completed', output: [{ type: 'message', status: 'completed', content: [{ type: 'output_text', text: 'Hello' }] }], usage: { input_tokens: 7, output_tokens: 3, total_tokens: 10 }, svc_metadata: svcMetadata },
    });
  });

  it('closes the message when a tool call starts and streams interleaved call arguments', () => {
    const events = parse(encode([text('Let me check.'), call(0, '{"city":', 'call_a', 'weather'), call(1, '{"q":', 'call_b', 'search'), call(0, '"Paris"}'), call(1, '"x"}')]));
    const types = events.map((e) => e.type);
    expect(types.indexOf('response.output_item.done')).toBeLessThan(types.indexOf('response.function_call_arguments.delta'));
    const done = events.filter((e) => e.type === 'response.function_call_arguments.done');
    expect(done).toMatchObject([
      { output_index: 1, name: 'weather', arguments: '{"city":"Paris"}' },
      { output_index: 2, name: 'search', arguments: '{"q":"x"}' },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: { output: [{ type: 'message' }, { type: 'function_call', call_id: 'call_a' }, { type: 'function_call', call_id: 'call_b' }] } });
  });

  it('streams reasoning as its own item, closed before the text', () => {
    const events = parse(encode([{ type: 'reasoning-delta', choice: 0, text: 'Hmm' }, text('Yes')]));
    expect(events.map((e) => e.type).slice(2, 9)).toEqual([
      'response.output_item.added',
      'response.content_part.added',
      'response.reasoning_text.delta',
      'response.reasoning_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
    ]);
    expect(events.at(-1)).toMatchObject({ response: { output: [{ type: 'reasoning', status: 'completed' }, { type: 'message', status: 'completed' }] } });
  });

  it('ends with response.incomplete on max tokens', () => {
    const events = parse(encode([text('Hel'), { type: 'finish', choice: 0, finishReason: 'length' }]));
    expect(events.at(-1)).toMatchObject({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } });
  });

  it('holds the final response once it ended, and none after a failure', () => {
    let ended: ResponseStreamEncoder | undefined;
    const events = parse(encode([text('Hi')], (encoder) => {
      ended = encoder;
      expect(encoder.finalResponse).toBeUndefined();
      return encoder.end(svcMetadata);
    }));
    expect(ended?.finalResponse).toEqual(events.at(-1)?.response);
    let failed: ResponseStreamEncoder | undefined;
    encode([text('Hi')], (encoder) => {
      failed = encoder;
      return encoder.error(new GatewayError({ status: 502, type: 'upstream_error', code: 'provider_error', message: 'broke' })) + encoder.end();
    });
    expect(failed?.finalResponse).toBeUndefined();
  });

  it('fails with response.failed and an error event, never a completion', () => {
    const error = new GatewayError({ status: 502, type: 'upstream_error', code: 'provider_error', message: 'upstream broke' });
    const events = parse(encode([text('Hel')], (encoder) => encoder.error(error) + encoder.end(svcMetadata)));
    expect(events.map((e) => e.type).slice(-2)).toEqual(['response.failed', 'error']);
    expect(events.at(-2)).toMatchObject({ response: { status: 'failed', error: { code: 'provider_error', message: 'upstream broke' } } });
    expect(events.at(-1)).toMatchObject({ code: 'provider_error', message: 'upstream broke', error: { type: 'upstream_error' } });
  });
});

describe('ResponseStreamEncoder through the openai SDK', () => {
  let server: Server;
  let client: OpenAI;
  let body = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new OpenAI({ apiKey: 'sk-test', baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('accumulates text and tool calls into the final response', async () => {
    const think: StreamEvent = { type: 'reasoning-delta', choice: 0, text: 'Hmm.' };
    body = encode([think, text('Hi '), text('there'), call(0, '{"a":', 'call_1', 'f'), call(0, '1}'), { type: 'usage', usage }]);
    const deltas: string[] = [];
    const stream = client.responses.stream({ model: 'gpt-4o', input: 'hi' });
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(deltas).toEqual(['Hi ', 'there']);
    expect(final.output_text).toBe('Hi there');
    expect(final.output[0]).toMatchObject({ type: 'reasoning', content: [{ type: 'reasoning_text', text: 'Hmm.' }] });
    expect(final.output[2]).toMatchObject({ type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{"a":1}' });
    expect(final.usage?.total_tokens).toBe(10);
  });

  it('throws the gateway error mid-stream', async () => {
    body = encode([text('Hel')], (encoder) => encoder.error(new GatewayError({ status: 502, type: 'upstream_error', code: 'provider_error', message: 'upstream broke' })));
    await expect(client.responses.stream({ model: 'gpt-4o', input: 'hi' }).finalResponse()).rejects.toThrow('upstream broke');
  });
});

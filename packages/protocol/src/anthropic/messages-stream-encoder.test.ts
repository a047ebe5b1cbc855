import { GatewayError, type StreamEvent, type SvcMetadata } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { MessagesStreamEncoder } from './messages-stream-encoder.js';

interface Event {
  event: string;
  data: Record<string, unknown> & { type: string; index?: number };
}

/** Splits SSE text into `{event, data}` and checks every frame has an event line matching its data type. */
function parse(text: string): Event[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => {
      const [eventLine, dataLine, ...rest] = frame.split('\n');
      expect(rest).toEqual([]);
      const event = eventLine!.replace(/^event: /, '');
      const data = JSON.parse(dataLine!.replace(/^data: /, '')) as Event['data'];
      expect(data.type).toBe(event);
      return { event, data };
    });
}

function run(events: StreamEvent[], finish: (encoder: MessagesStreamEncoder) => string = (e) => e.end()): Event[] {
  const encoder = new MessagesStreamEncoder({ id: 'msg_abc', model: 'mock/mock-value' });
  let out = encoder.start();
  for (const event of events) out += encoder.event(event);
  out += finish(encoder);
  return parse(out);
}

describe('MessagesStreamEncoder', () => {
  it('emits text then tool_use blocks in strict order, with stop reason and usage at the end', () => {
    const events = run([
      { type: 'meta', id: 'up', model: 'x' },
      { type: 'text-delta', choice: 0, text: 'Let me ' },
      { type: 'text-delta', choice: 0, text: 'check.' },
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Paris"}' },
      { type: 'tool-call-delta', choice: 0, index: 1, id: 'call_2', name: 'get_time', argumentsDelta: '' },
      { type: 'finish', choice: 0, finishReason: 'tool_calls' },
      { type: 'usage', usage: { promptTokens: 12, completionTokens: 9, totalTokens: 21 } },
    ]);
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[0]!.data).toMatchObject({ message: { id: 'msg_abc', content: [], stop_reason: null, usage: { input_tokens: 0, output_tokens: 0 } } });
    expect(events.filter((e) => e.event.startsWith('content_block')).map((e) => e.data.index)).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 2, 2]);
    expect(events[1]!.data.content_block).toEqual({ type: 'text', text: '' });
    expect(events[5]!.data.content_block).toEqual({ type: 'tool_use', id: 'call_1', name: 'get_weather', input: {} });
    const json = events.filter((e) => e.data.index === 1 && e.event === 'content_block_delta').map((e) => (e.data.delta as { partial_json: string }).partial_json);
    expect(JSON.parse(json.join(''))).toEqual({ city: 'Paris' });
    expect(events[11]!.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 12, output_tokens: 9, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    });
  });

  /** Each tool_use block's id, name and the concatenation of its `partial_json` deltas. */
  function toolBlocks(events: Event[]): { id: unknown; name: unknown; json: string }[] {
    const blocks = new Map<number, { id: unknown; name: unknown; json: string }>();
    for (const { event, data } of events) {
      const block = data.content_block as { type: string; id?: string; name?: string } | undefined;
      if (event === 'content_block_start' && block?.type === 'tool_use') blocks.set(data.index!, { id: block.id, name: block.name, json: '' });
      const delta = data.delta as { type: string; partial_json?: string } | undefined;
      if (event === 'content_block_delta' && delta?.type === 'input_json_delta') blocks.get(data.index!)!.json += delta.partial_json;
    }
    return [...blocks.values()];
  }

  it('keeps every argument of interleaved parallel calls: the second call waits for the first to close', () => {
    const events = run([
      { type: 'tool-call-delta', choice: 0, index: 0, id: 'call_a', name: 'get_weather', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 1, id: 'call_b', name: 'get_time', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '{"zone":"CET"}' },
      { type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '"Paris"}' },
      { type: 'finish', choice: 0, finishReason: 'tool_calls' },
    ]);
    expect(toolBlocks(events)).toEqual([
      { id: 'call_a', name: 'get_weather', json: '{"city":"Paris"}' },
      { id: 'call_b', name: 'get_time', json: '{"zone":"CET"}' },
    ]);
    // One block open at a time: every start follows the previous block's stop.
    const order = events.filter((e) => e.event.startsWith('content_block_s')).map((e) => `${e.event}:${e.data.index}`);
    expect(order).toEqual(['content_block_start:0', 'content_block_stop:0', 'content_block_start:1', 'content_block_stop:1']);
  });

  it('streams the next call live once the provider ends the open one, and holds text that comes mid-call', () => {
    const encoder = new MessagesStreamEncoder({ id: 'msg_abc', model: 'm' });
    let out = encoder.start();
    out += encoder.event({ type: 'tool-call-delta', choice: 0, index: 0, id: 'toolu_1', name: 'a', argumentsDelta: '{"x":' });
    out += encoder.event({ type: 'text-delta', choice: 0, text: 'between' });
    out += encoder.event({ type: 'tool-call-delta', choice: 0, index: 0, argumentsDelta: '1}' });
    out += encoder.event({ type: 'tool-call-delta', choice: 0, index: 1, id: 'toolu_2', name: 'b', argumentsDelta: '{' });
    const beforeEnd = parse(out);
    expect(beforeEnd.filter((e) => e.event === 'content_block_start')).toHaveLength(1);
    const released = parse(encoder.event({ type: 'tool-call-end', choice: 0, index: 0 }));
    // Block 0 closes, the held text goes out as its own block, call 1 opens and stays open (live).
    expect(released.map((e) => `${e.event}:${e.data.index}`)).toEqual([
      'content_block_stop:0',
      'content_block_start:1',
      'content_block_delta:1',
      'content_block_stop:1',
      'content_block_start:2',
      'content_block_delta:2',
    ]);
    const live = parse(encoder.event({ type: 'tool-call-delta', choice: 0, index: 1, argumentsDelta: '}' }));
    expect(live).toEqual([{ event: 'content_block_delta', data: { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '}' } } }]);
    const all = [...beforeEnd, ...released, ...live, ...parse(encoder.end())];
    expect(toolBlocks(all)).toEqual([
      { id: 'toolu_1', name: 'a', json: '{"x":1}' },
      { id: 'toolu_2', name: 'b', json: '{}' },
    ]);
    expect(all.at(-2)!.data).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it('closes an empty stream with end_turn and carries svc_metadata in message_delta', () => {
    const encoder = new MessagesStreamEncoder({ id: 'msg_1', model: 'm' });
    const events = parse(encoder.start() + encoder.end({ request_id: 'req_1' } as SvcMetadata));
    expect(events.map((e) => e.event)).toEqual(['message_start', 'message_delta', 'message_stop']);
    expect(events[1]!.data).toMatchObject({ delta: { stop_reason: 'end_turn' }, svc_metadata: { request_id: 'req_1' } });
  });

  it('maps a length finish to max_tokens and streams reasoning as a thinking block', () => {
    const events = run([
      { type: 'reasoning-delta', choice: 0, text: 'hmm' },
      { type: 'text-delta', choice: 0, text: 'ok' },
      { type: 'finish', choice: 0, finishReason: 'length' },
    ]);
    expect(events[1]!.data.content_block).toEqual({ type: 'thinking', thinking: '', signature: '' });
    expect(events[2]!.data.delta).toEqual({ type: 'thinking_delta', thinking: 'hmm' });
    expect(events[5]!.data.delta).toEqual({ type: 'text_delta', text: 'ok' });
    expect(events.at(-2)!.data).toMatchObject({ delta: { stop_reason: 'max_tokens' } });
  });

  it('ends a failed stream with an error event and never a message_stop', () => {
    const error = new GatewayError({ status: 502, type: 'upstream_error', code: 'provider_error', message: 'upstream died' });
    const events = run([{ type: 'text-delta', choice: 0, text: 'par' }], (encoder) => encoder.error(error) + encoder.end() + encoder.keepAlive());
    expect(events.map((e) => e.event)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'error']);
    expect(events[3]!.data).toMatchObject({ error: { type: 'api_error', message: 'upstream died', code: 'provider_error' } });
  });

  it('pings as an event every Anthropic client skips', () => {
    const encoder = new MessagesStreamEncoder({ id: 'msg_1', model: 'm' });
    expect(parse(encoder.keepAlive())).toEqual([{ event: 'ping', data: { type: 'ping' } }]);
  });
});

import { ProviderError } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

describe('convertToAnthropicMessages', () => {
  it('hoists system turns and merges tool results into one user turn, results first', () => {
    const prompt = convertToAnthropicMessages([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }, { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=' }] },
      {
        role: 'assistant',
        content: null,
        toolCalls: [
          { id: 'toolu_1', name: 'get_weather', arguments: '{"location":"Paris"}' },
          { id: 'toolu_2', name: 'get_weather', arguments: '{"location":"Rome"}' },
        ],
      },
      { role: 'tool', toolCallId: 'toolu_1', content: '18C' },
      { role: 'developer', content: 'Answer in French.' },
      { role: 'tool', toolCallId: 'toolu_2', content: [{ type: 'text', text: '24C' }] },
      { role: 'user', content: 'Thanks' },
    ]);

    expect(prompt.system).toEqual([
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: 'Answer in French.' },
    ]);
    expect(prompt.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather in Paris and Rome?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { location: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { location: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '18C' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: '24C' }] },
          { type: 'text', text: 'Thanks' },
        ],
      },
    ]);
  });

  it('puts tool results ahead of text already in the merged user turn', () => {
    const { messages } = convertToAnthropicMessages([
      { role: 'assistant', content: null, toolCalls: [{ id: 't1', name: 'f', arguments: '' }] },
      { role: 'user', content: 'Also, hurry.' },
      { role: 'tool', toolCallId: 't1', content: 'done' },
    ]);
    expect(messages[0]?.content).toEqual([{ type: 'tool_use', id: 't1', name: 'f', input: {} }]);
    expect(messages[1]?.content.map((block) => block.type)).toEqual(['tool_result', 'text']);
  });

  it('sends http images by URL and trims a trailing assistant prefill', () => {
    const { system, messages } = convertToAnthropicMessages([
      { role: 'user', content: [{ type: 'image', url: 'https://example.com/cat.jpg' }] },
      { role: 'assistant', content: 'The cat is ' },
    ]);
    expect(system).toBeUndefined();
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } }] },
      { role: 'assistant', content: [{ type: 'text', text: 'The cat is' }] },
    ]);
  });

  it('rejects arguments that are not a JSON object and audio input as caller faults', () => {
    const badArguments = () => convertToAnthropicMessages([{ role: 'assistant', content: null, toolCalls: [{ id: 't', name: 'f', arguments: '{oops' }] }]);
    expect(badArguments).toThrow(ProviderError);
    expect(badArguments).toThrow(/JSON object/);
    const audio = () => convertToAnthropicMessages([{ role: 'user', content: [{ type: 'audio', data: 'AAAA', format: 'wav' }] }]);
    expect(audio).toThrow(/audio/);
  });
});

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    ['pause_turn', 'stop'],
    [null, 'stop'],
  ] as const)('%s -> %s', (reason, expected) => {
    expect(mapAnthropicStopReason(reason)).toBe(expected);
  });

  it('reports a JSON-mode tool answer as stop', () => {
    expect(mapAnthropicStopReason('tool_use', true)).toBe('stop');
  });
});

import { ProviderError } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { GEMINI_SKIP_THOUGHT_SIGNATURE, convertToGeminiContents } from './convert-to-gemini-contents.js';
import { toGeminiSchema } from './gemini-schema.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

describe('convertToGeminiContents', () => {
  it('maps roles, media, calls and named function responses, merging same-role turns', () => {
    const prompt = convertToGeminiContents([
      { role: 'developer', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather here?' },
          { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=' },
          { type: 'image', url: 'https://example.com/sky.webp?size=large' },
        ],
      },
      {
        role: 'assistant',
        content: 'Checking.',
        toolCalls: [
          { id: 'call_a', name: 'get_weather', arguments: '{"location":"Paris"}' },
          { id: 'call_b', name: 'get_time', arguments: '' },
        ],
      },
      { role: 'tool', toolCallId: 'call_b', content: '10:00' },
      { role: 'tool', toolCallId: 'call_a', content: [{ type: 'text', text: '18C' }] },
      { role: 'user', content: 'Thanks' },
    ]);

    expect(prompt.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(prompt.contents).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'Weather here?' },
          { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
          { fileData: { mimeType: 'image/webp', fileUri: 'https://example.com/sky.webp?size=large' } },
        ],
      },
      {
        role: 'model',
        parts: [
          { text: 'Checking.' },
          { functionCall: { name: 'get_weather', args: { location: 'Paris' } }, thoughtSignature: GEMINI_SKIP_THOUGHT_SIGNATURE },
          { functionCall: { name: 'get_time', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_time', response: { output: '10:00' } } },
          { functionResponse: { name: 'get_weather', response: { output: '18C' } } },
          { text: 'Thanks' },
        ],
      },
    ]);
  });

  it('names a response after the latest call with that id, since generated ids can repeat', () => {
    const { contents } = convertToGeminiContents([
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_0', name: 'first', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'call_0', content: 'a' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_0', name: 'second', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'call_0', content: 'b' },
    ]);
    expect(contents[3]?.parts).toEqual([{ functionResponse: { name: 'second', response: { output: 'b' } } }]);
  });

  it('rejects a tool result that answers no known call', () => {
    const orphan = () => convertToGeminiContents([{ role: 'tool', toolCallId: 'call_x', content: 'a' }]);
    expect(orphan).toThrow(ProviderError);
    expect(orphan).toThrow(/call_x/);
  });
});

describe('toGeminiSchema', () => {
  it('drops keys Gemini rejects and rewrites nullables, const, oneOf and local refs', () => {
    const schema = toGeminiSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      properties: {
        email: { type: 'string', format: 'email' },
        when: { type: 'string', format: 'date-time' },
        kind: { const: 'user' },
        size: { enum: [1, 2, 3] },
        owner: { $ref: '#/$defs/person' },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        shape: { oneOf: [{ type: 'string' }, { type: 'number' }] },
      },
      required: ['email'],
      $defs: { person: { type: 'object', properties: { name: { type: 'string' }, parent: { $ref: '#/$defs/person' } } } },
    });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        email: { type: 'string' },
        when: { type: 'string', format: 'date-time' },
        kind: { enum: ['user'] },
        size: {},
        owner: { type: 'object', properties: { name: { type: 'string' }, parent: { type: 'object' } } },
        note: { type: 'string', nullable: true },
        shape: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      },
      required: ['email'],
    });
  });
});

describe('mapGeminiFinishReason', () => {
  it.each([
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool_calls'],
    ['MAX_TOKENS', false, 'length'],
    ['SAFETY', false, 'content_filter'],
    ['RECITATION', false, 'content_filter'],
    ['BLOCKLIST', false, 'content_filter'],
    ['PROHIBITED_CONTENT', false, 'content_filter'],
    ['SPII', false, 'content_filter'],
    ['OTHER', false, 'stop'],
  ] as const)('%s (tool calls: %s) -> %s', (reason, toolCalls, expected) => {
    expect(mapGeminiFinishReason(reason, toolCalls)).toBe(expected);
  });
});

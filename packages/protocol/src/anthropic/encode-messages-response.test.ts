import { GatewayError, rateLimited, type SvcMetadata } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { encodeMessagesError, encodeMessagesResponse } from './encode-messages-response.js';

describe('encodeMessagesResponse', () => {
  it('encodes text and tool calls as blocks, with the Anthropic stop reason and usage', () => {
    const body = encodeMessagesResponse(
      {
        model: 'gpt-4o-mini',
        choices: [{ index: 0, finishReason: 'tool_calls', message: { role: 'assistant', content: 'Let me check.', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] } }],
        usage: { promptTokens: 100, completionTokens: 7, totalTokens: 107, cachedPromptTokens: 60, cacheWriteTokens: 10 },
      },
      { id: 'msg_1', model: 'openai/gpt-4o-mini' },
    );
    expect(body).toEqual({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'openai/gpt-4o-mini',
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 30, output_tokens: 7, cache_read_input_tokens: 60, cache_creation_input_tokens: 10 },
    });
  });

  it('omits `citations` on a text block: the Vercel AI SDK rejects `citations: null`', () => {
    const body = encodeMessagesResponse(
      { model: 'm', choices: [{ index: 0, finishReason: 'stop', message: { role: 'assistant', content: 'Hi.' } }], usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } },
      { id: 'msg_2', model: 'm' },
    );
    expect(body.content[0]).not.toHaveProperty('citations');
  });

  it.each([
    ['stop', 'end_turn'],
    ['length', 'max_tokens'],
    ['content_filter', 'refusal'],
  ] as const)('maps finish reason %s to %s and carries svc_metadata', (finishReason, stopReason) => {
    const body = encodeMessagesResponse(
      { model: 'm', choices: [{ index: 0, finishReason, message: { role: 'assistant', content: 'x' } }] },
      { id: 'msg_2', model: 'm', svcMetadata: { request_id: 'req_1' } as SvcMetadata },
    );
    expect(body.stop_reason).toBe(stopReason);
    expect(body.usage).toEqual({ input_tokens: 0, output_tokens: 0 });
    expect(body.svc_metadata).toEqual({ request_id: 'req_1' });
  });
});

describe('encodeMessagesError', () => {
  it('uses the Anthropic error envelope, type vocabulary and keeps the gateway code and param', () => {
    const bad = new GatewayError({ status: 400, type: 'invalid_request_error', code: 'validation_error', message: 'no', param: 'max_tokens' });
    expect(encodeMessagesError(bad, 'req_1')).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'no', code: 'validation_error', param: 'max_tokens' },
      request_id: 'req_1',
    });
    expect(encodeMessagesError(rateLimited('slow down', 1)).error.type).toBe('rate_limit_error');
    const forbidden = new GatewayError({ status: 403, type: 'authorization_error', code: 'insufficient_scopes', message: 'x' });
    expect(encodeMessagesError(forbidden).error).toMatchObject({ type: 'permission_error', code: 'insufficient_scopes' });
    const open = new GatewayError({ status: 503, type: 'governance_error', code: 'circuit_breaker_open', message: 'x' });
    expect(encodeMessagesError(open).error.type).toBe('overloaded_error');
  });
});

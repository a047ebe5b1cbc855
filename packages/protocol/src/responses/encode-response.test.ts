import type { ChatRequest, SvcMetadata } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { encodeResponse } from './encode-response.js';
import type { ResponseMeta } from './response-shell.js';

const request: ChatRequest = { model: 'svc/auto', messages: [{ role: 'user', content: 'hi' }], stream: false, n: 1, includeUsage: false, maxTokens: 50 };
const meta: ResponseMeta = { id: 'resp_1', createdAt: 1_700_000_000, model: 'gpt-4o', request, echo: { instructions: 'Be brief.', store: false, previous_response_id: null } };
const usage = { promptTokens: 7, completionTokens: 3, totalTokens: 10, cachedPromptTokens: 2 };

describe('encodeResponse', () => {
  it('encodes text as one completed message item with usage and svc_metadata', () => {
    const svcMetadata = { request_id: 'req-1', provider: 'mock' } as SvcMetadata;
    const body = encodeResponse(
      { model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finishReason: 'stop' }], usage },
      { ...meta, svcMetadata },
    );
    expect(body).toMatchObject({
      id: 'resp_1',
      object: 'response',
      created_at: 1_700_000_000,
      status: 'completed',
      incomplete_details: null,
      instructions: 'Be brief.',
      max_output_tokens: 50,
      model: 'gpt-4o',
      store: false,
      output: [{ type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hello', annotations: [] }] }],
      usage: { input_tokens: 7, input_tokens_details: { cached_tokens: 2 }, output_tokens: 3, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 10 },
      svc_metadata: svcMetadata,
    });
    expect(body.output[0]!.id).toMatch(/^msg_/);
    expect(body).not.toHaveProperty('output_text');
  });

  it('encodes tool calls as function_call items and no empty message', () => {
    const body = encodeResponse(
      {
        model: 'gpt-4o',
        choices: [{ index: 0, message: { role: 'assistant', content: null, toolCalls: [{ id: 'call_1', name: 'f', arguments: '{"a":1}' }, { id: 'call_2', name: 'g', arguments: '{}' }] }, finishReason: 'tool_calls' }],
      },
      meta,
    );
    expect(body.output).toEqual([
      { type: 'function_call', id: expect.stringMatching(/^fc_/), call_id: 'call_1', name: 'f', arguments: '{"a":1}', status: 'completed' },
      { type: 'function_call', id: expect.stringMatching(/^fc_/), call_id: 'call_2', name: 'g', arguments: '{}', status: 'completed' },
    ]);
    expect(body.usage).toBeNull();
  });

  it('reports max tokens as incomplete with the reason', () => {
    const body = encodeResponse({ model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: 'Hel' }, finishReason: 'length' }] }, meta);
    expect(body.status).toBe('incomplete');
    expect(body.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(body.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
  });

  it('puts reasoning text in a reasoning item before the message', () => {
    const body = encodeResponse({ model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'Yes.', reasoning: 'Think.' }, finishReason: 'stop' }] }, meta);
    expect(body.output).toMatchObject([
      { type: 'reasoning', id: expect.stringMatching(/^rs_/), content: [{ type: 'reasoning_text', text: 'Think.' }] },
      { type: 'message', content: [{ type: 'output_text', text: 'Yes.' }] },
    ]);
  });

  it('keeps a refusal as a refusal part', () => {
    const body = encodeResponse({ model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: 'No.' }, finishReason: 'stop' }] }, meta);
    expect(body.output).toMatchObject([{ type: 'message', content: [{ type: 'refusal', refusal: 'No.' }] }]);
  });
});

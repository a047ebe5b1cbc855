import type { ChatResult, SvcMetadata } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { decodeCompletionsRequest } from './decode-completions-request.js';
import { encodeCompletion } from './encode-completion.js';

const errorOf = (body: unknown) => {
  try {
    decodeCompletionsRequest(body);
  } catch (error) {
    return error as { status: number; param: string | null; message: string };
  }
  throw new Error('expected a 400');
};

describe('decodeCompletionsRequest', () => {
  it('maps the prompt to one user message and the shared fields to the chat request', () => {
    const decoded = decodeCompletionsRequest({
      model: 'auto',
      prompt: ['Line one', 'Line two'],
      max_tokens: 16,
      temperature: 0.5,
      n: 2,
      stop: '\n\n',
      user: 'u-1',
      routing_hints: { mode: 'fast' },
    });
    expect(decoded.prompt).toBe('Line one\nLine two');
    expect(decoded.echo).toBe(false);
    expect(decoded.request).toMatchObject({
      model: 'auto',
      messages: [{ role: 'user', content: 'Line one\nLine two' }],
      maxTokens: 16,
      temperature: 0.5,
      n: 2,
      stop: ['\n\n'],
      user: 'u-1',
      stream: false,
      routingHints: { mode: 'fast' },
    });
  });

  it('defaults the prompt to the empty string and reports accepted-but-ignored fields', () => {
    const decoded = decodeCompletionsRequest({ model: 'auto', best_of: 3, suffix: 'end', logprobs: 2, echo: true });
    expect(decoded.prompt).toBe('');
    expect(decoded.echo).toBe(true);
    expect(decoded.notApplied).toEqual(['best_of', 'suffix', 'logprobs']);
  });

  it('refuses streaming, token arrays and out-of-range logprobs with a 400 naming the field', () => {
    expect(errorOf({ model: 'auto', prompt: 'x', stream: true })).toMatchObject({ status: 400, param: 'stream' });
    expect(errorOf({ model: 'auto', prompt: [1, 2, 3] })).toMatchObject({ status: 400, param: 'prompt.0' });
    expect(errorOf({ model: 'auto', prompt: 'x', logprobs: 6 })).toMatchObject({ status: 400, param: 'logprobs' });
    expect(errorOf({ prompt: 'x' })).toMatchObject({ status: 400, param: 'model' });
  });
});

describe('encodeCompletion', () => {
  const result: ChatResult = {
    model: 'mock-value',
    choices: [{ index: 0, message: { role: 'assistant', content: ' world' }, finishReason: 'stop' }],
    usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 },
  };

  it('prepends the prompt when echoing, pads to n and merges not_applied into svc_metadata', () => {
    const svcMetadata = { request_id: 'r', not_applied: ['routing_override.force_provider'] } as unknown as SvcMetadata;
    const body = encodeCompletion(result, { id: 'cmpl-1', created: 1, model: 'mock/mock-value', echoPrompt: 'Hello', n: 2, svcMetadata, notApplied: ['best_of'] });
    expect(body).toMatchObject({
      id: 'cmpl-1',
      object: 'text_completion',
      model: 'mock/mock-value',
      choices: [
        { text: 'Hello world', index: 0, logprobs: null, finish_reason: 'stop' },
        { text: 'Hello world', index: 1, logprobs: null, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    expect(body.svc_metadata?.not_applied).toEqual(['routing_override.force_provider', 'best_of']);
  });
});

import type { ChatResult, SvcMetadata } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { encodeChatCompletion } from './encode-chat-response.js';

const meta = { id: 'chatcmpl-1', created: 1700000000, model: 'openai/gpt-4o' };

const textResult: ChatResult = {
  model: 'gpt-4o-2024-08-06',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hi!' }, finishReason: 'stop' }],
  usage: { promptTokens: 12, completionTokens: 3, totalTokens: 15 },
};

describe('encodeChatCompletion', () => {
  it('produces the chat.completion object', () => {
    const { body, replicatedChoices } = encodeChatCompletion(textResult, meta);
    expect(replicatedChoices).toBe(0);
    expect(body).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1700000000,
      model: 'openai/gpt-4o',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hi!', refusal: null },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
    });
  });

  it('encodes tool calls, refusals, reasoning, logprobs and usage details', () => {
    const logprobs = { content: [{ token: 'x', logprob: -0.1, bytes: null, top_logprobs: [] }] };
    const { body } = encodeChatCompletion(
      {
        model: 'm',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              toolCalls: [{ id: 'call_1', name: 'weather', arguments: '{"city":"Oslo"}' }],
              reasoning: 'thinking',
              refusal: 'partly',
            },
            finishReason: 'tool_calls',
            logprobs,
          },
        ],
        usage: { promptTokens: 10, completionTokens: 8, totalTokens: 18, cachedPromptTokens: 6, reasoningTokens: 5 },
      },
      meta,
    );
    expect(body.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        refusal: 'partly',
        reasoning_content: 'thinking',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }],
      },
      finish_reason: 'tool_calls',
      logprobs,
    });
    expect(body.usage).toEqual({
      prompt_tokens: 10,
      completion_tokens: 8,
      total_tokens: 18,
      prompt_tokens_details: { cached_tokens: 6 },
      completion_tokens_details: { reasoning_tokens: 5 },
    });
  });

  it('replicates the first choice up to n with consecutive indices and reports it', () => {
    const { body, replicatedChoices } = encodeChatCompletion(textResult, { ...meta, n: 3 });
    expect(replicatedChoices).toBe(2);
    expect(body.choices.map((choice) => [choice.index, choice.message.content])).toEqual([
      [0, 'Hi!'],
      [1, 'Hi!'],
      [2, 'Hi!'],
    ]);
    body.choices[1]!.message.content = 'changed';
    expect(body.choices[0]!.message.content).toBe('Hi!');
  });

  it('keeps all provider choices when there are enough', () => {
    const twoChoices: ChatResult = {
      ...textResult,
      choices: [
        { index: 0, message: { role: 'assistant', content: 'a' }, finishReason: 'stop' },
        { index: 1, message: { role: 'assistant', content: 'b' }, finishReason: 'length' },
      ],
    };
    const { body, replicatedChoices } = encodeChatCompletion(twoChoices, { ...meta, n: 2 });
    expect(replicatedChoices).toBe(0);
    expect(body.choices.map((choice) => [choice.index, choice.message.content, choice.finish_reason])).toEqual([
      [0, 'a', 'stop'],
      [1, 'b', 'length'],
    ]);
  });

  it('adds svc_metadata when given and leaves usage out when unknown', () => {
    const svcMetadata = { request_id: 'req-1', tier: 'T1' } as SvcMetadata;
    const { body } = encodeChatCompletion({ ...textResult, usage: undefined }, { ...meta, svcMetadata });
    expect(body.svc_metadata).toBe(svcMetadata);
    expect(body).not.toHaveProperty('usage');
  });
});

import type { ChatMessage } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { answerTurn, conversationOf } from './conversation.js';
import { decodeResponsesRequest } from './decode-responses-request.js';

const earlier: ChatMessage[] = [
  { role: 'user', content: 'My name is Ada.' },
  { role: 'assistant', content: 'Hello Ada.' },
];

describe('conversationOf', () => {
  it('is the body alone when nothing is continued', () => {
    const decoded = decodeResponsesRequest({ model: 'm', instructions: 'Be brief.', input: 'hi' });
    const { request, turns } = conversationOf(decoded);
    expect(request).toBe(decoded.request);
    expect(turns).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('puts the earlier turns between this body’s instructions and its input', () => {
    const decoded = decodeResponsesRequest({ model: 'm', instructions: 'Be brief.', input: 'What is my name?', previous_response_id: 'resp_1' });
    const { request, turns } = conversationOf(decoded, earlier);
    expect(request.messages).toEqual([{ role: 'system', content: 'Be brief.' }, ...earlier, { role: 'user', content: 'What is my name?' }]);
    expect(turns).toEqual([...earlier, { role: 'user', content: 'What is my name?' }]);
    expect(request.model).toBe('m');
  });

  it('carries no instructions when the body has none', () => {
    const decoded = decodeResponsesRequest({ model: 'm', input: [{ role: 'developer', content: 'Use French.' }, { role: 'user', content: 'Hi' }] });
    expect(conversationOf(decoded, earlier).request.messages).toEqual([...earlier, { role: 'developer', content: 'Use French.' }, { role: 'user', content: 'Hi' }]);
  });
});

describe('answerTurn', () => {
  it('replays text, refusal and function calls as one assistant turn, without reasoning', () => {
    expect(
      answerTurn([
        { type: 'reasoning', id: 'rs_1', summary: [], content: [{ type: 'reasoning_text', text: 'hmm' }], status: 'completed' },
        { type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Let me ', annotations: [], logprobs: [] }, { type: 'output_text', text: 'check.', annotations: [], logprobs: [] }] },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{}', status: 'completed' },
      ]),
    ).toEqual({ role: 'assistant', content: 'Let me check.', toolCalls: [{ id: 'call_1', name: 'f', arguments: '{}' }] });
    expect(answerTurn([{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{}', status: 'completed' }])).toEqual({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'call_1', name: 'f', arguments: '{}' }],
    });
    expect(answerTurn([{ type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] }])).toEqual({ role: 'assistant', content: '', refusal: 'No.' });
  });
});

describe('inputItems', () => {
  it('lists the input as items with ids and content parts', () => {
    const { inputItems } = decodeResponsesRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { type: 'reasoning' },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'ok' },
      ],
    });
    expect(inputItems).toEqual([
      { id: expect.stringMatching(/^msg_/), type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }], status: 'completed' },
      { id: expect.stringMatching(/^msg_/), type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello' }], status: 'completed' },
      { id: expect.stringMatching(/^fc_/), type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}', status: 'completed' },
      { id: expect.stringMatching(/^fco_/), type: 'function_call_output', call_id: 'c1', output: 'ok', status: 'completed' },
    ]);
    expect(decodeResponsesRequest({ model: 'm', input: 'Hi' }).inputItems).toMatchObject([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }]);
  });
});

import type { ChatMessage, ResponseFormat } from '@svc/core';
import { describe, expect, test } from 'vitest';
import { buildCorrectionMessages, correctionInstruction } from './correction-messages.js';
import { verifyJsonOutput } from './verify-json-output.js';

const schema = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer' } },
  required: ['name', 'age'],
  additionalProperties: false,
};
const person: ResponseFormat = { type: 'json_schema', name: 'person', schema, strict: true };
const conversation: ChatMessage[] = [
  { role: 'system', content: 'Extract the person.' },
  { role: 'user', content: 'Ann is forty-two.' },
];

describe('buildCorrectionMessages', () => {
  test('appends the invalid answer and an instruction that lists every problem by path', () => {
    const answer = 'Here: {"name": "Ann", "age": "forty-two"}';
    const result = verifyJsonOutput(answer, person);
    const messages = buildCorrectionMessages({ messages: conversation, answer, result, format: person });

    expect(messages.slice(0, 2)).toEqual(conversation);
    expect(messages[2]).toEqual({ role: 'assistant', content: answer });
    expect(messages[3]?.role).toBe('user');
    expect(messages[3]?.content).toBe(
      [
        'Your previous reply is not valid: the reply must be a JSON value matching the JSON Schema "person".',
        'Problems found:',
        '- /age: must be integer',
        'Reply again with only the corrected JSON: no markdown code fences, no text before or after it.',
        'Keep what you meant and fix only the problems listed. Do not invent values you do not know; use null only where the schema allows it.',
        'The JSON Schema:',
        JSON.stringify(schema),
      ].join('\n'),
    );
    expect(messages).toHaveLength(4);
    expect(conversation).toHaveLength(2);
  });

  test('json_object: asks for one object; a cut-off answer is told to be shorter', () => {
    const answer = 'I think the answer is';
    const result = verifyJsonOutput(answer, { type: 'json_object' }, { finishReason: 'length' });
    const instruction = correctionInstruction(result, { type: 'json_object' });
    expect(instruction).toContain('the reply must be a single JSON object.');
    expect(instruction).toContain('- (root): must be a JSON object');
    expect(instruction).not.toContain('Schema');

    const cut = verifyJsonOutput('{"name": "Ann", "ag', person);
    expect(correctionInstruction(cut, person)).toContain('Your reply was cut off before the JSON was complete');
  });

  test('long issue lists are capped', () => {
    const many: ResponseFormat = { type: 'json_schema', name: 'nums', schema: { type: 'array', items: { type: 'integer' } } };
    const result = verifyJsonOutput(JSON.stringify(Array.from({ length: 30 }, () => 'x')), many);
    const lines = correctionInstruction(result, many).split('\n');
    expect(lines.filter((line) => line.startsWith('- /'))).toHaveLength(20);
    expect(lines).toContain('- and 10 more');
  });
});

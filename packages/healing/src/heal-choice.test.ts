import type { ChatChoice, ChatResult, ResponseFormat } from '@svc/core';
import { describe, expect, test } from 'vitest';
import { healChatResult, healChoice } from './heal-choice.js';
import { createOutputVerifier } from './verify-json-output.js';

const jsonObject: ResponseFormat = { type: 'json_object' };
const choice = (content: string | null, extra: Partial<ChatChoice> = {}): ChatChoice => ({
  index: 0,
  message: { role: 'assistant', content },
  finishReason: 'stop',
  ...extra,
});

describe('healChoice', () => {
  test('replaces the content with the healed JSON and keeps the rest of the choice', () => {
    const original = choice('```json\n{"a": 1,}\n```', { logprobs: { content: [] } });
    const { choice: healed, verification } = healChoice(original, jsonObject);
    expect(healed).toEqual({ ...original, message: { role: 'assistant', content: '{"a": 1}' } });
    expect(verification?.report).toMatchObject({ stage: 1, healed: '{"a": 1}', original: '```json\n{"a": 1,}\n```' });
  });

  test('valid and hopeless answers are returned untouched (the same object)', () => {
    const valid = choice('{"a": 1}');
    expect(healChoice(valid, jsonObject)).toMatchObject({ choice: valid, verification: { stage: 0 } });
    const hopeless = choice('no JSON here');
    expect(healChoice(hopeless, jsonObject)).toMatchObject({ choice: hopeless, verification: { stage: 3, valid: false } });
  });

  test('finish_reason length flags the repair as a completed truncation', () => {
    const { verification } = healChoice(choice('{"items": ["a", "b"', { finishReason: 'length' }), jsonObject);
    expect(verification).toMatchObject({ valid: true, meaningAtRisk: true, confidence: 0.3 });
  });

  test('nothing to verify: text format, tool calls, refusals, filtered or empty content', () => {
    expect(healChoice(choice('x'), { type: 'text' }).verification).toBeUndefined();
    expect(healChoice(choice(null, { finishReason: 'tool_calls' }), jsonObject).verification).toBeUndefined();
    expect(healChoice(choice('{"a": 1', { finishReason: 'tool_calls' }), jsonObject).verification).toBeUndefined();
    const refusal = choice('I cannot', { message: { role: 'assistant', content: 'I cannot', refusal: 'I cannot' } });
    expect(healChoice(refusal, jsonObject).verification).toBeUndefined();
    expect(healChoice(choice('', { finishReason: 'content_filter' }), jsonObject).verification).toBeUndefined();
  });
});

describe('healChatResult', () => {
  const result = (contents: string[]): ChatResult => ({
    model: 'm',
    choices: contents.map((content, index) => ({ ...choice(content), index })),
    usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
  });

  test('heals every choice, reports the first healing for svc_metadata and lists the invalid ones', () => {
    const verifier = createOutputVerifier();
    const healed = healChatResult(result(['{"a": 1}', "{'b': 2}", 'nope']), jsonObject, { verifier });
    expect(healed.result.choices.map((entry) => entry.message.content)).toEqual(['{"a": 1}', '{"b": 2}', 'nope']);
    expect(healed.result.usage).toEqual({ promptTokens: 1, completionTokens: 2, totalTokens: 3 });
    expect(healed.verifications.map((entry) => entry?.stage)).toEqual([0, 1, 3]);
    expect(healed.healerReport).toMatchObject({ original: "{'b': 2}", healed: '{"b": 2}', stage: 1, confidence: 0.9 });
    expect(healed.invalidChoices).toEqual([2]);
  });

  test('healing off, or a confidence under the minimum, leaves healable answers as written and counts them invalid', () => {
    const answers = result(['{"a": 1}', "{'b': 2}", '{"c": 3,}']);
    const off = healChatResult(answers, jsonObject, { healing: false });
    expect(off.result).toBe(answers);
    expect(off.invalidChoices).toEqual([1, 2]);
    expect(off.healerReport).toBeUndefined();
    // "{'b': 2}" heals at confidence 0.9; a minimum of 0.95 refuses it and keeps the next report that passes, if any.
    const strict = healChatResult(answers, jsonObject, { minConfidence: 0.95 });
    expect(strict.invalidChoices).toEqual(strict.verifications.flatMap((v, i) => (v?.report && v.confidence < 0.95 ? [i] : [])));
    expect(strict.invalidChoices).toContain(1);
    expect(strict.result.choices[1]!.message.content).toBe("{'b': 2}");
    const lenient = healChatResult(answers, jsonObject, { minConfidence: 0.9 });
    expect(lenient.invalidChoices).not.toContain(1);
    expect(lenient.result.choices[1]!.message.content).toBe('{"b": 2}');
    expect(healChoice(choice("{'b': 2}"), jsonObject, { healing: false })).toMatchObject({ refused: true, verification: { valid: true, stage: 1 } });
  });

  test('an answer that needed nothing is the same object, with no report', () => {
    const answer = result(['{"a": 1}']);
    const healed = healChatResult(answer, jsonObject);
    expect(healed.result).toBe(answer);
    expect(healed.healerReport).toBeUndefined();
    expect('healerReport' in healed).toBe(false);
  });
});

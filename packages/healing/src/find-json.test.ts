import { describe, expect, test } from 'vitest';
import { findJsonSpans, unfence } from './find-json.js';

describe('findJsonSpans', () => {
  test('finds the object after prose and stops where its brackets balance, ignoring brackets in strings', () => {
    const text = 'Sure: {"a": "}{", "b": [1, {"c": 2}]} -- done';
    const [span] = findJsonSpans(text, '{', 4);
    expect(span && text.slice(span.start, span.end)).toBe('{"a": "}{", "b": [1, {"c": 2}]}');
    expect(span?.truncated).toBe(false);
  });

  test('lists several candidates in order, so a stray brace in prose does not hide the answer', () => {
    const text = 'Use {name} here. {"a":1}';
    expect(findJsonSpans(text, '{', 4).map((span) => text.slice(span.start, span.end))).toEqual(['{name}', '{"a":1}']);
  });

  test('marks a value that never closes as truncated, also inside a string', () => {
    expect(findJsonSpans('{"a": [1, 2', '{', 4)).toEqual([{ start: 0, end: 11, truncated: true }]);
    expect(findJsonSpans('{"a": "x}', '{', 4)[0]?.truncated).toBe(true);
  });

  test('an apostrophe in an unquoted value is not a string opener; a single-quoted key is', () => {
    expect(findJsonSpans("{a: don't} rest", '{', 4)[0]).toEqual({ start: 0, end: 10, truncated: false });
    expect(findJsonSpans("{'a}': 1}", '{', 4)[0]).toEqual({ start: 0, end: 9, truncated: false });
  });

  test('arrays count only when asked for', () => {
    expect(findJsonSpans('See [1] and {"a":1}', '{', 4)).toHaveLength(1);
    expect(findJsonSpans('See [1] and {"a":1}', '{[', 4)).toHaveLength(2);
  });
});

describe('unfence', () => {
  test('takes the first fence, with or without a language tag, and tells whether prose surrounded it', () => {
    expect(unfence('```json\n{"a":1}\n```', '{')).toEqual({ inner: '{"a":1}', prose: false });
    expect(unfence('Here:\n```\n{"a":1}\n```\nBye', '{')).toEqual({ inner: '{"a":1}', prose: true });
  });

  test('a fence on one line, and a code sample with a fence inside a JSON value', () => {
    expect(unfence('```json {"a":1}```', '{')).toEqual({ inner: '{"a":1}', prose: false });
    const inner = '{"code": "```js\\nx()\\n```"}';
    expect(unfence('```json\n' + inner + '\n```\nDone.', '{')).toEqual({ inner, prose: true });
  });

  test('an unclosed fence (truncated answer) runs to the end', () => {
    expect(unfence('```json\n{"a":[1,', '{')).toEqual({ inner: '{"a":[1,', prose: false });
  });

  test('a fence inside the JSON (in a string value) is content, not wrapping', () => {
    expect(unfence('{"code": "```js\\nx()\\n```",}', '{')).toBeUndefined();
  });
});

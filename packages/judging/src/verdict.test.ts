import { describe, expect, it } from 'vitest';
import { combineOrders, parseJudgeAnswer } from './verdict.js';

describe('parseJudgeAnswer', () => {
  it.each([
    ['{"winner":"A"}', 'A'],
    ['{"winner": "tie"}', 'tie'],
    [' B. ', 'B'],
    ['"a"', 'A'],
    ['[[B]]', 'B'],
  ])('reads %s as %s', (text, choice) => {
    expect(parseJudgeAnswer(text)).toBe(choice);
  });

  it('reads anything else as no choice', () => {
    expect(parseJudgeAnswer('Answer A is better because')).toBeUndefined();
    expect(parseJudgeAnswer('{"winner":"C"}')).toBeUndefined();
  });
});

describe('combineOrders (candidate first as A, then as B)', () => {
  it('a win or a loss needs both orders to agree', () => {
    expect(combineOrders('A', 'B')).toBe('candidate');
    expect(combineOrders('B', 'A')).toBe('incumbent');
  });

  it('a judge that always prefers the same position, a tie or an unreadable answer gives a tie', () => {
    expect(combineOrders('A', 'A')).toBe('tie');
    expect(combineOrders('B', 'B')).toBe('tie');
    expect(combineOrders('tie', 'B')).toBe('tie');
    expect(combineOrders(undefined, 'B')).toBe('tie');
  });
});

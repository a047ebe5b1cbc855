import { describe, expect, it } from 'vitest';
import { wordTokens } from '@svc/semantic/training';
import { splitByQuestion } from './split.js';

describe('splitByQuestion', () => {
  it('keeps every question, and every spelling of it, on one side', () => {
    const questions = Array.from({ length: 400 }, (_, i) => `What is question number ${i}?`);
    // Chains of pairs (a question shared by up to three pairs), plus re-spelled copies.
    const pairs = questions.flatMap((q, i) => [
      { a: q, b: questions[(i * 7 + 3) % questions.length]!, duplicate: i % 3 === 0 },
      { a: q.toUpperCase(), b: questions[(i * 11 + 5) % questions.length]!, duplicate: false },
    ]);
    const { train, heldOut } = splitByQuestion(pairs);
    expect(train.length + heldOut.length).toBe(pairs.length);
    const key = (t: string) => wordTokens(t).join(' ');
    const trainQuestions = new Set(train.flatMap((p) => [key(p.a), key(p.b)]));
    for (const p of heldOut) {
      expect(trainQuestions.has(key(p.a))).toBe(false);
      expect(trainQuestions.has(key(p.b))).toBe(false);
    }
  });

  it('splits independent pairs about evenly and the same way every time', () => {
    const pairs = Array.from({ length: 2000 }, (_, i) => ({ a: `alpha ${i}`, b: `beta ${i}`, duplicate: false }));
    const first = splitByQuestion(pairs);
    expect(first.train.length).toBeGreaterThan(900);
    expect(first.heldOut.length).toBeGreaterThan(900);
    expect(splitByQuestion(pairs).train).toEqual(first.train);
  });
});

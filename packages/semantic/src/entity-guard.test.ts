import { describe, expect, it } from 'vitest';
import { keyTerms, mayShareAnswer, sameKeyTerms } from './entity-guard.js';

const same = (a: string, b: string) => sameKeyTerms(keyTerms(a), keyTerms(b));

describe('key-term guard', () => {
  it('refuses the same question about another entity', () => {
    expect(same('What is the capital of France?', 'What is the capital of Spain?')).toBe(false);
    expect(same('Who won the 2018 World Cup?', 'Who won the 2022 World Cup?')).toBe(false);
    expect(same('What is 15% of 200?', 'What is 15% of 300?')).toBe(false);
    expect(same('What are preprocessor directives in C++?', 'What are preprocessor directives in C?')).toBe(false);
  });

  it('lets paraphrases through, whatever their case, and a qualifier one side drops', () => {
    expect(same('What is the capital of France?', "what's the capital city of france")).toBe(true);
    expect(same('Was Elvis Presley overrated?', 'Is Elvis overrated?')).toBe(true);
    expect(same('How do I start preparing for Google Summer of Code?', 'How should I prepare for google summer of code?')).toBe(true);
    expect(same('Write a haiku about autumn.', 'Compose an autumn haiku')).toBe(true);
  });

  it('reads names only where capitals mean something: not at the start of a sentence, except acronyms', () => {
    const terms = keyTerms('Where is Paris? Which river crosses it? Is NASA in Texas?');
    expect([...terms.names].sort()).toEqual(['nasa', 'paris', 'texa']);
    expect([...terms.numbers]).toEqual([]);
    expect([...keyTerms('Format `x` as **bold** | table').symbols]).toEqual([]);
  });

  it('near-miss guard: refuses a negation, an opposite word or two words the other way round a relation word', () => {
    const share = (a: string, b: string) => mayShareAnswer(keyTerms(a), keyTerms(b));
    expect(share('Is the museum open on holidays?', 'Is the museum closed on holidays?')).toBe(false);
    expect(share('How can I lose weight fast?', 'How can I gain weight fast?')).toBe(false);
    expect(share('Is coffee bad for you?', "Isn't coffee bad for you?")).toBe(false);
    expect(share('Is Python faster than Java?', 'Is Java faster than Python?')).toBe(false);
    expect(share('Why is gold more expensive than silver?', 'Why is silver more expensive than gold?')).toBe(false);
    expect(share('How many miles are in one kilometer?', 'How many kilometers are in one mile?')).toBe(false);
    expect(share('How do I move from a Windows PC to a Mac?', 'How do I move from a Mac to a Windows PC?')).toBe(false);
    // Paraphrases keep their hit.
    expect(share('How can I lose weight quickly?', 'What is the fastest way to lose weight?')).toBe(true);
    expect(share('Is Python faster than Java?', 'Is Python quicker than Java?')).toBe(true);
    expect(share("Why can't I sleep at night?", 'Why am I not able to sleep at night?')).toBe(true);
  });
});

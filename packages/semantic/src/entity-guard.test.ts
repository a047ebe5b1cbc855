import { describe, expect, it } from 'vitest';
import { keyTerms, sameKeyTerms } from './entity-guard.js';

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
});

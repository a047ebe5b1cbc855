import { describe, expect, it } from 'vitest';
import { asksForState, clearlyNearest, type NearestRules } from './recall-nearest.js';

const rules: NearestRules = { state: { floor: 0.32, ahead: 0.1 }, own: { floor: 0.32, ahead: 0.15 } };

describe('asksForState', () => {
  it('reads wh-questions about the user present state', () => {
    for (const q of ['Which bank am I with?', 'What laptop do I have?', 'Who is my phone plan with?', "What's my evening ritual?", 'Where do I spend my summers?', 'Which sport am I into?']) expect(asksForState(q), q).toBe(true);
  });

  it('does not read how-to, advice or questions about the world', () => {
    for (const q of ['How do I get my English better?', "What's the best smartphone I can get under rs. 15000?", 'What degree should I study to become a businessman?', 'What is the capital of France?', 'When will I get married?']) expect(asksForState(q), q).toBe(false);
  });
});

describe('clearlyNearest', () => {
  const fact = (relevance: number, ownHit = false) => ({ relevance, rerank: { ownHit } });

  it('gives the nearest fact of a state question when it is clearly ahead', () => {
    const first = fact(0.39);
    expect(clearlyNearest([fact(0.2), first, fact(0.25)], { query: 'Which computer do I work on?', rules, below: 0.08 })).toBe(first);
  });

  it('gives nothing when the nearest is too far or not clear of the next', () => {
    expect(clearlyNearest([fact(0.3), fact(0.1)], { query: 'Which computer do I work on?', rules, below: 0.08 })).toBeUndefined();
    expect(clearlyNearest([fact(0.4), fact(0.33)], { query: 'Which computer do I work on?', rules, below: 0.08 })).toBeUndefined();
    expect(clearlyNearest([], { query: 'Which computer do I work on?', rules, below: 0.08 })).toBeUndefined();
  });

  it('needs a word the request ties to its user for any other request', () => {
    const owned = fact(0.42, true);
    expect(clearlyNearest([owned, fact(0.2)], { query: 'How do I send money abroad from my bank account?', rules, below: 0.08 })).toBe(owned);
    expect(clearlyNearest([fact(0.42), fact(0.2)], { query: 'How do I send money abroad from my bank account?', rules, below: 0.08 })).toBeUndefined();
    expect(clearlyNearest([fact(0.42, true), fact(0.3)], { query: 'How do I send money abroad from my bank account?', rules, below: 0.08 })).toBeUndefined();
  });
});

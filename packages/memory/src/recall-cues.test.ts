import { describe, expect, it } from 'vitest';
import { contentWords, cueBonus, maxCueBonus, recallCues } from './recall-cues.js';

const weights = { wordHit: 0.03, slotHit: 0.25 };

describe('recall cues', () => {
  it('keeps the topic words of a text, stemmed, without stop words', () => {
    expect(contentWords("What is my dog's name these days?")).toEqual(new Set(['dog', 'name']));
    expect(contentWords('I am training for a marathon')).toEqual(new Set(['train', 'marathon']));
  });

  it('adds the slot bonus when the fact fills the slot asked for, the word bonus for a shared topic word', () => {
    const cues = recallCues('Where do I live these days?');
    expect(cueBonus(cues, { text: 'I live in Lisbon.', slot: 'home' }, weights)).toBeCloseTo(0.28, 5);
    expect(cueBonus(cues, { text: 'My parents live near Porto.', slot: null }, weights)).toBeCloseTo(0.03, 5);
    expect(cueBonus(cues, { text: 'I work at Acme.', slot: 'employer' }, weights)).toBe(0);
    expect(cueBonus(recallCues('How do I bake sourdough bread?'), { text: 'I live in Lisbon.', slot: 'home' }, weights)).toBe(0);
    expect(maxCueBonus(weights)).toBeCloseTo(0.28, 5);
  });
});

import { describe, expect, it } from 'vitest';
import { contentWords, cueBonus, maxCueBonus, ownWords, recallCues } from './recall-cues.js';

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

  it('reads the words a request ties to its user, and adds the own-word bonus for a fact that holds one', () => {
    expect(ownWords('Suggest a warm-up routine for the sport I play.')).toEqual(new Set(['sport', 'play']));
    expect(ownWords('Find me a good bakery near where I live')).toEqual(new Set(['live']));
    expect(ownWords("How can I make my laptop's battery last longer?")).toEqual(new Set(['laptop', 'battery']));
    expect(ownWords('How can I lose weight fast?')).toEqual(new Set());
    const own = { ...weights, ownWordHit: 0.1 };
    expect(cueBonus(recallCues('Find me a good bakery near where I live'), { text: 'I moved to Berlin and live there now.', slot: null }, own)).toBeCloseTo(0.13, 5);
    expect(cueBonus(recallCues('Suggest a warm-up for the sport I play.'), { text: 'These days I play rugby.', slot: null }, own)).toBeCloseTo(0.13, 5);
    expect(cueBonus(recallCues('How do I bake bread?'), { text: 'I play rugby.', slot: null }, own)).toBe(0);
    expect(maxCueBonus(own)).toBeCloseTo(0.38, 5);
  });
});

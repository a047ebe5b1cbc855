import type { VectorMatch } from '@svc/semantic';
import { describe, expect, it } from 'vitest';
import { ownedPhrases, phraseLeader } from './recall-owned.js';

const rule = { floor: 0.3, ahead: 0.15, phrase: 0.3, phraseAhead: 0.05 };
const match = (id: string, score: number) => ({ id, score }) as VectorMatch;

describe('ownedPhrases', () => {
  it('reads the phrases a request names the user’s own things with', () => {
    expect(ownedPhrases('Will my supermarket be open on Sunday evening?')).toEqual(['my supermarket', 'my supermarket be']);
    expect(ownedPhrases('Can you check the baggage allowance of the airline I usually fly?')).toEqual(['the airline i fly']);
    expect(ownedPhrases('Find me a good bakery near where I live')).toEqual(['where i live']);
  });

  it('reads no owned thing in a question about the world', () => {
    expect(ownedPhrases("What's the best smartphone I can get under rs. 15000?")).toEqual([]);
    expect(ownedPhrases('What is the capital of France?')).toEqual([]);
  });
});

describe('phraseLeader', () => {
  it('names the fact clearly nearest to any of the phrases', () => {
    expect(phraseLeader([[match('tesco', 0.52), match('porto', 0.3)], [match('porto', 0.41), match('tesco', 0.4)]], rule)).toBe('tesco');
  });

  it('names nothing when the nearest is too far or not clear of the next', () => {
    expect(phraseLeader([[match('tesco', 0.28), match('porto', 0.1)]], rule)).toBeUndefined();
    expect(phraseLeader([[match('tesco', 0.45)], [match('porto', 0.42)]], rule)).toBeUndefined();
    expect(phraseLeader([], rule)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { lexiconKind, namedValues, onlyAName, plainOpening } from './value-lexicon.js';

describe('namedValues', () => {
  it('reads the names the gazetteer knows, the longest entry first, with or without an article', () => {
    expect(namedValues('I moved my account to Revolut.')).toEqual([{ kind: 'bank', value: 'Revolut' }]);
    expect(namedValues('I keep my savings at Deutsche Bank')).toEqual([{ kind: 'bank', value: 'Deutsche Bank' }]);
    expect(namedValues("I'm on T-Mobile for my phone plan.")).toEqual([{ kind: 'carrier', value: 'T-Mobile' }]);
    expect(namedValues('Every summer I go to the Algarve.')).toEqual([{ kind: 'place', value: 'Algarve' }]);
    expect(namedValues('These days I subscribe to Disney Plus.')).toEqual([{ kind: 'streaming', value: 'Disney Plus' }]);
    expect(namedValues('I took up Rugby instead')).toEqual([{ kind: 'sport', value: 'Rugby' }]);
  });

  it('matches a capitalised entry only as written: the carrier Orange, not the colour orange', () => {
    expect(namedValues('I ported my number to Orange.')).toEqual([{ kind: 'carrier', value: 'Orange' }]);
    expect(namedValues('My favourite colour is orange.')).toEqual([]);
    expect(namedValues('I bank with ing')).toEqual([]);
  });
});

describe('a capital that opens a sentence', () => {
  it('is no name when the word is also an ordinary word: "Orange is my favourite colour" names no carrier', () => {
    expect(namedValues('Orange is my favourite colour.')).toEqual([]);
    expect(namedValues('Hi! Chase is a fun game to play with the kids.')).toEqual([]);
    expect(namedValues('A correction: Edge of the world is my favourite film.')).toEqual([]);
    expect(plainOpening('Apple pie is what I bake. Orange is my colour')).toBe('apple pie is what I bake. orange is my colour');
  });

  it('is a name when the gazetteer knows the word only as one, or a capitalised word follows it', () => {
    expect(namedValues('Monzo is my bank now.')).toEqual([{ kind: 'bank', value: 'Monzo' }]);
    expect(namedValues('Ravi is my best friend.')).toEqual([{ kind: 'person', value: 'Ravi' }]);
    expect(namedValues('Apple Music is what I use now.')).toEqual([{ kind: 'music', value: 'Apple Music' }]);
    expect(namedValues('I switched to Orange. Orange I like.')).toEqual([{ kind: 'carrier', value: 'Orange' }]);
    expect(onlyAName('Monzo')).toBe(true);
    expect(onlyAName('Orange')).toBe(false);
    expect(onlyAName('Zorblax')).toBe(false);
  });

  it('is not looked at in a value already read off its statement: "Orange" from "I switched to Orange" is the carrier', () => {
    expect(lexiconKind('Orange')).toBe('carrier');
  });
});

describe('lexiconKind', () => {
  it('gives the kind of a value whose names are of one kind, none for several kinds or none known', () => {
    expect(lexiconKind('Ravi')).toBe('person');
    expect(lexiconKind('Corsica')).toBe('place');
    expect(lexiconKind('Tom Lisbon')).toBeUndefined();
    expect(lexiconKind('Zorblax')).toBeUndefined();
  });
});

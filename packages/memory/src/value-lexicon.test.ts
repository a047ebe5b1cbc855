import { describe, expect, it } from 'vitest';
import { lexiconKind, namedValues } from './value-lexicon.js';

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

describe('lexiconKind', () => {
  it('gives the kind of a value whose names are of one kind, none for several kinds or none known', () => {
    expect(lexiconKind('Ravi')).toBe('person');
    expect(lexiconKind('Corsica')).toBe('place');
    expect(lexiconKind('Tom Lisbon')).toBeUndefined();
    expect(lexiconKind('Zorblax')).toBeUndefined();
  });
});


import { describe, expect, it } from 'vitest';
import { type CorrectionSettings, decideWrite, holderOf, sharedFrameWords } from './corrections.js';
import { oneHabitOfItsTime } from './routine-links.js';
import { fact, near, stored } from './test/stored-facts.js';

const settings: CorrectionSettings = { mergeSimilarity: 0.9, corrections: true, updateSimilarity: 0.45, retractSimilarity: 0.6 };

describe('holderOf', () => {
  it('tells the user’s own attributes from those of the people and animals they mention', () => {
    expect(holderOf('I live in Lisbon')).toBe('i');
    expect(holderOf('My favourite colour is teal')).toBe('i');
    expect(holderOf('My partner is Sam')).toBe('i');
    expect(holderOf("My dog's name is Rex")).toBe('i');
    expect(holderOf('My sister lives in Madrid')).toBe('my sister');
    expect(holderOf('These days my sister is based in Dublin')).toBe('my sister');
  });

  it('reads what a relation is doing as theirs, and one relation under its two words as one holder', () => {
    expect(holderOf('My daughter is learning the violin.')).toBe('my daughter');
    expect(holderOf('My daughter switched to the drums.')).toBe('my daughter');
    expect(holderOf('These days my dad is into coins.')).toBe('my father');
    expect(holderOf('My father has a big collection of stamps.')).toBe(holderOf("My dad's hobby is collecting vinyl records."));
    expect(holderOf('My mum lives in Leeds.')).toBe(holderOf('My mother moved to York.'));
    // Who the relation is stays the user's own attribute, a name in -ing too.
    expect(holderOf('My partner is Sterling.')).toBe('i');
    expect(holderOf('My best friend is called Ravi.')).toBe('i');
  });
});

describe('sharedFrameWords', () => {
  it('counts what two statements share besides the new value', () => {
    expect(sharedFrameWords('These days I drink my coffee with sugar', 'I like my coffee black.')).toEqual(['coffee']);
    expect(sharedFrameWords('These days I drink my coffee with sugar', "I'm trying to cut down on sugar.")).toEqual([]);
  });
});

describe('decideWrite', () => {
  const lisbon = stored('a', 'I live in Lisbon.', 'home');
  const nurse = stored('b', 'I work as a nurse.', 'job');
  const vegetarian = stored('c', 'I am vegetarian.');
  const sister = stored('d', 'My sister lives in Madrid.');

  it('supersedes the fact of the same slot, or the closest one of the same holder when a change is announced', () => {
    expect(decideWrite(fact('I moved to Berlin last month.'), near([lisbon, 0.37], [nurse, 0.2]), settings, new Set())).toEqual({ kind: 'supersede', old: expect.objectContaining({ id: 'a' }) });
    expect(decideWrite(fact('I eat fish again.'), near([vegetarian, 0.45 + 0.21], [lisbon, 0.1]), settings, new Set())).toEqual({ kind: 'supersede', old: expect.objectContaining({ id: 'c' }) });
    // No change announced, no slot: a new fact beside the old one.
    expect(decideWrite(fact('I eat fish.'), near([vegetarian, 0.7]), settings, new Set())).toEqual({ kind: 'add' });
    // The sister moving changes nothing of the user's.
    expect(decideWrite(fact('My sister moved to Dublin.'), near([lisbon, 0.7], [sister, 0.8]), settings, new Set())).toEqual({ kind: 'supersede', old: expect.objectContaining({ id: 'd' }) });
    expect(decideWrite(fact('My sister moved to Dublin.'), near([lisbon, 0.7]), settings, new Set())).toEqual({ kind: 'add' });
    // Not a fact the same message just wrote.
    expect(decideWrite(fact('I moved to Berlin.'), near([lisbon, 0.5]), settings, new Set(['a']))).toEqual({ kind: 'add' });
  });

  it('takes a change for the stored fact it is clearly closest to, though they share no word', () => {
    const chrome = stored('e', 'I browse the web with Chrome.');
    const marathon = stored('f', "I'm training for a half marathon.");
    expect(decideWrite(fact('I switched to Brave.'), near([chrome, 0.36], [marathon, 0.27]), settings, new Set())).toEqual({ kind: 'supersede', old: expect.objectContaining({ id: 'e' }) });
    // Not clear of the next fact, or too far: a new fact beside the others.
    expect(decideWrite(fact('I switched to Brave.'), near([chrome, 0.35], [marathon, 0.3]), settings, new Set())).toEqual({ kind: 'add' });
    expect(decideWrite(fact('I switched to Brave.'), near([chrome, 0.25]), settings, new Set())).toEqual({ kind: 'add' });
    // "new" may announce a change, but not one of a present state that replaces another.
    expect(decideWrite(fact("I'm saving up for a new bike."), near([marathon, 0.4], [chrome, 0.1]), settings, new Set())).toEqual({ kind: 'add' });
  });

  it('takes a change for the fact it is clearly closest to among the same person’s, however the person was named', () => {
    const violin = stored('i', 'My daughter is learning the violin.');
    const school = stored('j', 'My daughter goes to Lincoln Elementary.');
    const stamps = stored('k', 'My father has a big collection of stamps.');
    expect(decideWrite(fact('My daughter switched to the drums.'), near([violin, 0.55], [school, 0.3]), settings, new Set())).toEqual({ kind: 'supersede', old: expect.objectContaining({ id: 'i' }) });
    expect(decideWrite(fact('These days my dad is into coins.'), near([stamps, 0.5]), settings, new Set())).toEqual({ kind: 'supersede', old: expect.objectContaining({ id: 'k' }) });
  });

  it('takes a change naming the time of day of the one habit held then for that habit, before the closest fact', () => {
    const piano = stored('g', 'I play the piano.');
    const crossword = stored('h', 'Before bed I always do a crossword.');
    const change = fact('I end my days with meditation now.');
    const neighbours = near([piano, 0.4], [crossword, 0.2]);
    expect(decideWrite(change, neighbours, settings, new Set())).toEqual({ kind: 'supersede', old: expect.objectContaining({ id: 'g' }) });
    expect(decideWrite(change, neighbours, settings, new Set(), oneHabitOfItsTime(change, neighbours, { written: new Set() }))).toEqual({ kind: 'supersede', old: expect.objectContaining({ id: 'h' }) });
  });

  it('removes what a retraction or a "forget that" names, and stores the retraction but not the request', () => {
    expect(decideWrite(fact("I don't live in Lisbon anymore."), near([lisbon, 0.86]), settings, new Set())).toEqual({ kind: 'remove', old: expect.objectContaining({ id: 'a' }), store: true });
    expect(decideWrite(fact('Forget that I live in Lisbon.'), near([lisbon, 0.99]), settings, new Set())).toEqual({ kind: 'remove', old: expect.objectContaining({ id: 'a' }), store: false });
    // What was said about a value: the closest stored fact naming it, however far.
    const waitrose = stored('w', 'I do my food shopping at Waitrose.');
    expect(decideWrite(fact('Ignore what I said about Waitrose.'), near([lisbon, 0.3], [waitrose, 0.2]), settings, new Set())).toEqual({ kind: 'remove', old: expect.objectContaining({ id: 'w' }), store: false });
    expect(decideWrite(fact('Ignore what I said about Tesco.'), near([waitrose, 0.4]), settings, new Set())).toEqual({ kind: 'skip' });
    // Close, but sharing no word: not what was named.
    expect(decideWrite(fact('Forget that I work as a teacher.'), near([nurse, 0.7]), settings, new Set())).toEqual({ kind: 'skip' });
  });

  it('with corrections off, only merges near-duplicates', () => {
    const off = { ...settings, corrections: false };
    expect(decideWrite(fact('I moved to Berlin.'), near([lisbon, 0.4]), off, new Set())).toEqual({ kind: 'add' });
    expect(decideWrite(fact('I live in Lisbon!'), near([lisbon, 0.95]), off, new Set())).toEqual({ kind: 'merge', into: expect.objectContaining({ id: 'a' }) });
  });
});


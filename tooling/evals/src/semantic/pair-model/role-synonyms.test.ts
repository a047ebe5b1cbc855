import { describe, expect, it } from 'vitest';
import { replaceSynonyms, synonymLexicon, synonymRewordings } from './role-synonyms.js';

describe('rewordings with synonyms read off paraphrase pairs', () => {
  const lexicon = synonymLexicon([
    { origin: 'The function returns a list of names.', similar: 'The function yields a list of names.' },
    { origin: 'The library helps to load datasets.', similar: 'A list of datasets is loaded by the library.' },
    { origin: 'Models are saved to disk.', similar: 'The model is saved on disk.' },
  ]);

  it('reads one-for-one replacements both ways, not words that only moved nor same-stem forms', () => {
    expect(lexicon.get('returns')).toEqual(new Set(['yields']));
    expect(lexicon.get('yields')).toEqual(new Set(['returns']));
    expect(lexicon.has('library')).toBe(false);
    expect(lexicon.has('helps')).toBe(false);
    expect(lexicon.has('models')).toBe(false);
  });

  it('puts synonyms into a sentence, and moves (a duplicate) or swaps roles (not one)', () => {
    const sentence = 'In 1990 , Smith returns the list to Jones .';
    expect(replaceSynonyms(sentence, lexicon, 2)).toBe('In 1990 , Smith yields the list to Jones .');
    const made = synonymRewordings([sentence], () => lexicon, 10);
    expect(made).toEqual([
      { a: sentence, b: 'Smith yields the list to Jones in 1990 .', duplicate: true, rule: 'synonym-move' },
      { a: sentence, b: 'In 1990 , Jones yields the list to Smith .', duplicate: false, rule: 'synonym-swap' },
    ]);
  });
});

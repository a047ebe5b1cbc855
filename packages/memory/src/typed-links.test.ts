import { describe, expect, it } from 'vitest';
import { fact, near, stored } from './test/stored-facts.js';
import { pairValues, sameKindOfValue } from './typed-links.js';
import type { ValueKinds } from './value-kinds.js';

/** Kinds read from a small table (the shared encoder's are tested through the evaluation). */
const table: Record<string, string> = { red: 'colour', blonde: 'colour', brown: 'colour', Tom: 'person', Ravi: 'person', Lena: 'person', Crete: 'place', Berlin: 'place' };
const kinds: ValueKinds & { calls: number } = {
  calls: 0,
  async kindsOf(values) {
    kinds.calls++;
    return values.map((v) => table[v]);
  },
};
const written = new Set<string>();

describe('pairValues', () => {
  it('reads the two values of statements about the same thing', () => {
    expect(pairValues('I dyed my hair blonde.', 'I have red hair.')).toEqual(['blonde', 'red']);
    expect(pairValues('I dyed my hair brown.', 'My hair is red')).toEqual(['brown', 'red']);
    expect(pairValues("I've grown close to Tom, my new best friend.", 'My best friend is called Ravi.')).toEqual(['Tom', 'Ravi']);
    // The opening capital is the sentence's: the value is the colour orange (its words), not the name Orange.
    expect(pairValues('Orange is the colour of my hair now.', 'I have red hair.')).toEqual(['orange colour', 'red']);
  });

  it('reads none when only the verb, the holder or the naming words are shared', () => {
    expect(pairValues('I like coffee.', 'I like tea.')).toBeUndefined();
    expect(pairValues('My son plays golf.', 'My son plays tennis.')).toBeUndefined();
    expect(pairValues('My dog is named Rex.', 'My cat is named Mochi.')).toBeUndefined();
  });
});

describe('sameKindOfValue', () => {
  const red = stored('red', 'I have red hair.');
  const friend = stored('ravi', 'My best friend is called Ravi.');

  it('links a statement to the fact about the same thing with a value of the same kind, without a change word', async () => {
    expect((await sameKindOfValue(kinds, fact('I dyed my hair blonde.'), near([red, 0.6], [friend, 0.2]), { written }))?.id).toBe('red');
    expect((await sameKindOfValue(kinds, fact("I've grown close to Tom, my new best friend."), near([friend, 0.55], [red, 0.2]), { written }))?.id).toBe('ravi');
  });

  it('links nothing when the kinds differ, two facts qualify, or the fact is far, a name, an event or of another holder', async () => {
    expect(await sameKindOfValue(kinds, fact('I dyed my hair Berlin.'), near([red, 0.6]), { written })).toBeUndefined();
    const also = stored('brown', 'My hair is brown.');
    expect(await sameKindOfValue(kinds, fact('I dyed my hair blonde.'), near([red, 0.6], [also, 0.6]), { written })).toBeUndefined();
    expect(await sameKindOfValue(kinds, fact('I dyed my hair blonde.'), near([red, 0.2]), { written })).toBeUndefined();
    const name = stored('name', 'My name is Ravi.', 'name');
    expect(await sameKindOfValue(kinds, fact('My name is Tom.'), near([name, 0.7]), { written })).toBeUndefined();
    const before = kinds.calls;
    for (const text of ['I dyed my hair blonde last week.', "I'm planning to dye my hair blonde.", 'My sister dyed her hair blonde.', "My hair isn't blonde."]) {
      expect(await sameKindOfValue(kinds, fact(text), near([red, 0.6]), { written })).toBeUndefined();
    }
    expect(kinds.calls).toBe(before);
  });
});

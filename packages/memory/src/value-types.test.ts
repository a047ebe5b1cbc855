import type { Embedder } from '@svc/semantic';
import { describe, expect, it } from 'vitest';
import { fact, near, stored } from './test/stored-facts.js';
import { sameValueType, valuePhrase } from './value-types.js';


/** An embedder that places each text on the axis of the kind it names (banks, islands, frames about money or summers). */
function kindEmbedder(kinds: Record<string, number>): Embedder & { calls: number } {
  const embedder = {
    id: 'kinds',
    dimensions: 4,
    calls: 0,
    async embed(texts: readonly string[]) {
      embedder.calls++;
      return texts.map((text) => {
        const v = new Float32Array(4);
        const kind = Object.entries(kinds).find(([word]) => text.includes(word));
        v[kind ? kind[1] : 3] = 1;
        return v;
      });
    },
  };
  return embedder;
}

describe('valuePhrase', () => {
  it('reads the names, numbers with their unit, or else the last content word', () => {
    expect(valuePhrase('I moved my account to Monzo')).toBe('Monzo');
    expect(valuePhrase('Ravi is my best friend')).toBe('Ravi');
    expect(valuePhrase('I drive a Tesla Model 3 now')).toBe('Tesla Model 3');
    expect(valuePhrase("I'm 29 years old")).toBe('29 years');
    expect(valuePhrase('I wear size 44 shoes')).toBe('44 shoes');
    expect(valuePhrase("I've gone vegan")).toBe('vegan');
    expect(valuePhrase('I moved to Berlin last month')).toBe('Berlin');
    // A capital that opens the sentence is no name unless the word is known only as one.
    expect(valuePhrase('Apple pie is what I bake')).toBe('bake');
    expect(valuePhrase('Orange is my favourite colour')).toBe('colour');
    expect(valuePhrase('Monzo is my bank now')).toBe('Monzo');
  });
});

describe('sameValueType', () => {
  const embedder = kindEmbedder({ HSBC: 0, ING: 0, 'account to': 0, 'bank with': 0, Crete: 1, 'summer I go': 1, Tom: 2 });
  const written = new Set<string>();

  it('links a change to the stored fact of the same frame and kind of value', async () => {
    const matches = near([stored('bank', 'I bank with ING'), 0.36], [stored('summer', 'Every summer I go to Crete'), 0.3]);
    expect((await sameValueType(embedder, fact('I moved my account to HSBC now'), matches, { written }))?.id).toBe('bank');
  });

  it('links nothing when two stored facts are as close, when nothing announces a change, or across holders', async () => {
    const tied = near([stored('a', 'I bank with ING'), 0.36], [stored('b', 'I also bank with ING'), 0.3]);
    expect(await sameValueType(embedder, fact('I moved my account to HSBC now'), tied, { written })).toBeUndefined();
    const one = near([stored('bank', 'I bank with ING'), 0.36]);
    expect(await sameValueType(embedder, fact('I opened an account at HSBC'), one, { written })).toBeUndefined();
    expect(await sameValueType(embedder, fact('My sister moved her account to HSBC now'), one, { written })).toBeUndefined();
  });

  it('leaves events and plans alone, and takes no negated or valueless change', async () => {
    const trip = near([stored('trip', "I'm planning a trip to Crete next month"), 0.5]);
    const crete = kindEmbedder({ Corsica: 1, Crete: 1, 'summer I go': 1, 'trip to': 1, 'I go to': 1 });
    expect(await sameValueType(crete, fact('These days I go to Corsica every summer'), trip, { written })).toBeUndefined();
    expect(crete.calls).toBe(0);
    const one = near([stored('bank', 'I bank with ING'), 0.36]);
    expect(await sameValueType(embedder, fact("I don't bank with HSBC now"), one, { written })).toBeUndefined();
    expect(await sameValueType(embedder, fact("I've changed my mind now"), one, { written })).toBeUndefined();
  });

  it('embeds nothing when no stored fact of the holder is near', async () => {
    const quiet = kindEmbedder({});
    expect(await sameValueType(quiet, fact('I moved my account to HSBC now'), near([stored('far', 'I bank with ING'), 0.05]), { written })).toBeUndefined();
    expect(quiet.calls).toBe(0);
  });
});

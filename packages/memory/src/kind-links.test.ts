import { describe, expect, it } from 'vitest';
import { onlyOneOfItsKind } from './kind-links.js';
import { fact, near, stored } from './test/stored-facts.js';

const written = new Set<string>();
const ing = stored('1', 'I bank with ING.');
const savings = stored('2', "I'm saving up for a house.");
const telekom = stored('3', 'My mobile carrier is Telekom.');

describe('onlyOneOfItsKind', () => {
  it('links a change to the one stored fact naming another value of its kind, whatever the wording', () => {
    expect(onlyOneOfItsKind(fact('I moved my account to Revolut.'), near([savings, 0.4], [ing, 0.25], [telekom, 0.2]), { written })?.id).toBe('1');
    expect(onlyOneOfItsKind(fact('I ported my number to O2.'), near([savings, 0.3], [ing, 0.2], [telekom, 0.2]), { written })?.id).toBe('3');
  });

  it('links nothing when two stored facts name a value of the kind, or one names the same value', () => {
    const monzo = stored('4', 'I keep my savings at Monzo.');
    expect(onlyOneOfItsKind(fact('I moved my account to Revolut.'), near([ing, 0.3], [monzo, 0.3]), { written })).toBeUndefined();
    expect(onlyOneOfItsKind(fact('I moved my account to ING now.'), near([ing, 0.5]), { written })).toBeUndefined();
  });

  it('links nothing for what is not a present change: no change word, an event or plan, a negation, another holder', () => {
    expect(onlyOneOfItsKind(fact('I like Revolut.'), near([ing, 0.3]), { written })).toBeUndefined();
    expect(onlyOneOfItsKind(fact("I'm planning to switch to Revolut next month."), near([ing, 0.3]), { written })).toBeUndefined();
    expect(onlyOneOfItsKind(fact("I don't bank with Revolut now."), near([ing, 0.3]), { written })).toBeUndefined();
    expect(onlyOneOfItsKind(fact('My sister moved her account to Revolut.'), near([ing, 0.3]), { written })).toBeUndefined();
    expect(onlyOneOfItsKind(fact('I moved my account to Revolut.'), near([ing, 0.3]), { written: new Set(['1']) })).toBeUndefined();
  });

  it('reads no name from a capital that opens a sentence: a colour does not replace the carrier', () => {
    expect(onlyOneOfItsKind(fact('Orange is my favourite colour now.'), near([telekom, 0.3], [savings, 0.2]), { written })).toBeUndefined();
    expect(onlyOneOfItsKind(fact('Revolut is my bank now.'), near([ing, 0.3], [telekom, 0.2]), { written })?.id).toBe('1');
  });

  it('never replaces a name, a birthday or an origin', () => {
    const from = stored('5', 'I am from Portugal.', 'origin');
    expect(onlyOneOfItsKind(fact('I moved to Spain now.'), near([from, 0.4]), { written })).toBeUndefined();
  });
});

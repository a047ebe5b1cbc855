import { describe, expect, it } from 'vitest';
import { onlyOneOfItsKind, onlyOneOfItsTypedKind, sameKindMatcher } from './kind-links.js';
import type { ValueKinds } from './value-kinds.js';
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

describe('onlyOneOfItsTypedKind', () => {
  // A typer that knows airlines and sports by name (the word-vector typer of the evaluations in their place).
  const KNOWN: Record<string, string> = { Lufthansa: 'company', KLM: 'company', Ryanair: 'company', handball: 'sport', tennis: 'sport' };
  const kinds = sameKindMatcher({ kindsOf: async (values) => values.map((v) => KNOWN[v]) } satisfies ValueKinds);
  const klm = stored('6', 'I usually fly KLM.');
  const tennis = stored('7', 'My sport is tennis.');

  it('links a change to the one stored fact whose value phrase is of its kind', async () => {
    expect((await onlyOneOfItsTypedKind(kinds, fact('I switched to Lufthansa.'), near([tennis, 0.3], [klm, 0.2]), { written }))?.id).toBe('6');
    expect((await onlyOneOfItsTypedKind(kinds, fact('I took up handball instead.'), near([klm, 0.3], [tennis, 0.3]), { written }))?.id).toBe('7');
  });

  it('links nothing for two facts of the kind, the same value, no change word or an untyped value', async () => {
    const ryanair = stored('8', 'I fly Ryanair for short trips.');
    const cases: [string, ReturnType<typeof near>][] = [
      ['I switched to Lufthansa.', near([klm, 0.3], [ryanair, 0.3])],
      ['I switched to KLM.', near([klm, 0.3])],
      ['I like Lufthansa.', near([klm, 0.3])],
      ['I switched to Condor.', near([klm, 0.3])],
    ];
    for (const [text, matches] of cases) expect(await onlyOneOfItsTypedKind(kinds, fact(text), matches, { written }), text).toBeUndefined();
  });
});

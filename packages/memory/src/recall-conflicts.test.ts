import { describe, expect, it } from 'vitest';
import { withChangesStandingIn, withoutReplaced } from './recall-conflicts.js';
import { recallCues } from './recall-cues.js';

const at = (day: number) => new Date(Date.UTC(2026, 0, day));
const fact = (text: string, day: number, slot: string | null = null) => ({ text, slot, updatedAt: at(day) });

describe('withoutReplaced', () => {
  it('drops an older fact a newer recalled change replaces, judged by a shared frame word or a word the request ties to the user', () => {
    const plan = fact('My phone plan is with Telekom.', 1);
    const switched = fact('I switched my plan to O2.', 30);
    expect(withoutReplaced([plan, switched], recallCues('Who is my phone plan with?'))).toEqual([switched]);
    const badminton = fact('I play badminton twice a week.', 1);
    const rugby = fact('These days I play rugby.', 30);
    expect(withoutReplaced([badminton, rugby], recallCues('Suggest a warm-up for the sport I play.'))).toEqual([rugby]);
  });

  it('keeps facts of other slots, other holders, and those no change replaces', () => {
    const acme = fact('I work at Acme.', 1, 'employer');
    const nurse = fact('I now work as a nurse.', 30, 'job');
    expect(withoutReplaced([acme, nurse], recallCues('Where do I work?'))).toEqual([acme, nurse]);
    const sister = fact('My sister plays tennis.', 1);
    const rugby = fact('I play rugby now.', 30);
    expect(withoutReplaced([sister, rugby], recallCues('What do I play?'))).toEqual([sister, rugby]);
    // No change announced: both stand ("I like tea" does not replace "I like coffee").
    expect(withoutReplaced([fact('I like coffee.', 1), fact('I like tea.', 30)], recallCues('What do I like to drink?'))).toHaveLength(2);
    // The older one is the change: nothing replaces it.
    expect(withoutReplaced([fact('I play rugby now.', 1), fact('I play the piano.', 30)], recallCues('What do I play?'))).toHaveLength(2);
  });
});

describe('withChangesStandingIn', () => {
  const scored = (text: string, day: number, similarity: number, slot: string | null = null) => ({ ...fact(text, day, slot), similarity, relevance: similarity });
  const settings = { floor: 0.25, gap: 0.25 };

  it('gives the newer change found under the floor in place of the older fact it follows, at the older one\'s relevance', () => {
    const ing = scored('I bank with ING.', 1, 0.6);
    const monzo = scored('I moved my account to Monzo.', 30, 0.4);
    expect(withChangesStandingIn([ing], [ing, monzo], settings)).toEqual([{ ...monzo, relevance: 0.6 }]);
  });

  it('keeps the older fact when the change is too far from the request, behind it by more than the gap, of another holder or slot, or older', () => {
    const ing = scored('I bank with ING.', 1, 0.6);
    expect(withChangesStandingIn([ing], [ing, scored('I moved my account to Monzo.', 30, 0.2)], settings)).toEqual([ing]);
    expect(withChangesStandingIn([ing], [ing, scored('I moved my account to Monzo.', 30, 0.3)], settings)).toEqual([ing]);
    expect(withChangesStandingIn([ing], [ing, scored('My sister moved her account to Monzo.', 30, 0.5)], settings)).toEqual([ing]);
    const acme = scored('I work at Acme.', 1, 0.6, 'employer');
    expect(withChangesStandingIn([acme], [acme, scored('I now work as a nurse.', 30, 0.5, 'job')], settings)).toEqual([acme]);
    expect(withChangesStandingIn([ing], [ing, scored('I moved my account to Monzo.', 0, 0.5)], settings)).toEqual([ing]);
    // A negated change names no current value; a change the encoder places near another attribute is about something else.
    expect(withChangesStandingIn([ing], [ing, scored('I have no bank account now.', 30, 0.5)], settings)).toEqual([ing]);
    const dutch = { ...scored("I'm learning Dutch.", 1, 0.6), attribute: 'language' };
    expect(withChangesStandingIn([dutch], [dutch, { ...scored("I'm studying history now.", 30, 0.5), attribute: 'job' }], settings)).toEqual([dutch]);
    // An event is not a present state: "I moved here from Berlin last year" does not stand in for where the user lives.
    const lisbon = scored('I live in Lisbon.', 1, 0.6);
    expect(withChangesStandingIn([lisbon], [lisbon, scored('I moved here from Berlin last year.', 30, 0.5)], settings)).toEqual([lisbon]);
    // Not a change: "I like tea" does not stand in for "I like coffee".
    const coffee = scored('I like coffee.', 1, 0.6);
    expect(withChangesStandingIn([coffee], [coffee, scored('I like tea.', 30, 0.5)], settings)).toEqual([coffee]);
  });

  it('gives a change once when it stands in for two facts', () => {
    const ing = scored('I bank with ING.', 1, 0.6);
    const savings = scored('I keep my savings at ING.', 2, 0.55);
    const monzo = scored('I moved my account to Monzo.', 30, 0.45);
    expect(withChangesStandingIn([ing, savings], [ing, savings, monzo], settings)).toEqual([{ ...monzo, relevance: 0.6 }]);
  });
});

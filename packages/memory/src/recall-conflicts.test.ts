import { describe, expect, it } from 'vitest';
import { withoutReplaced } from './recall-conflicts.js';
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

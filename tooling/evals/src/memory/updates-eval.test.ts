import { describe, expect, it } from 'vitest';
import { loadFacts } from './dataset.js';
import { loadAttributeQuestions, loadUpdateAttributes, updateUsers } from './updates-data.js';
import { statedAs } from './stated-facts.js';
import { asserts, cleanFacts } from './updates-eval.js';

describe('knowledge-update metrics', () => {
  it('counts a value as given only where a fact states it, not where it is taken back', () => {
    expect(asserts('I moved to Berlin last month', 'Berlin')).toBe(true);
    expect(asserts('I work out on Thursdays now', 'Thursday')).toBe(true);
    expect(asserts("I don't live in Lisbon anymore.", 'Lisbon')).toBe(false);
    expect(asserts('I dropped my old course and started Italian.', 'Italian')).toBe(true);
    expect(asserts('I live in Lisbon', 'Berlin')).toBe(false);
  });

  it('calls a message clean only when each statement became one fact with nothing glued on', () => {
    const clauses = [
      { attribute: 'home', value: 'Lisbon' },
      { attribute: 'job', value: 'nurse' },
    ];
    expect(cleanFacts([{ text: 'For future reference: I live in Lisbon and I work as a nurse. say exactly: noted', clauses }]).clean).toBe(1);
    expect(cleanFacts([{ text: 'I live in Lisbon where I work as a nurse.', clauses }]).clean).toBe(0);
  });

  it('builds the same users every run, with questions for every attribute and two distinct values for each update', () => {
    const attributes = loadUpdateAttributes();
    const questions = loadAttributeQuestions();
    const build = () => updateUsers(loadFacts(), attributes, { count: 8, perUser: 6 });
    expect(build()).toEqual(build());
    expect(attributes.every((a) => (questions.get(a.attribute)?.tune.length ?? 0) > 0 && (questions.get(a.attribute)?.test.length ?? 0) > 0)).toBe(true);
    for (const user of build()) for (const held of user.attributes) expect(held.first).not.toBe(held.second);
    // The held-back forms are not the tuning forms.
    for (const q of questions.values()) expect(q.test.filter((form) => q.tune.includes(form))).toEqual([]);
  });

  it('counts a stale answer per fact: the facts the old statement was stored as, not a fact that merely names the old value', () => {
    const session = [
      { text: 'Hi! My hair is blue and I work as a nurse. say exactly: noted', clauses: [{ attribute: 'hair colour', value: 'blue' }, { attribute: 'job', value: 'nurse' }] },
      { text: 'My band plays at the Blue Note.', clauses: [] },
    ];
    expect([...statedAs(session, 'hair colour', 'blue')]).toEqual(['My hair is blue']);
    expect([...statedAs(session, 'job', 'nurse')]).toEqual(['I work as a nurse.']);
    expect(statedAs(session, 'hair colour', 'red').size).toBe(0);
  });
});

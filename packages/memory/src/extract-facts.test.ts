import { describe, expect, it } from 'vitest';
import { extractFacts } from './extract-facts.js';
import { factSlot, slotsAskedFor } from './fact-slots.js';

const texts = (message: string) => extractFacts(message).map((fact) => fact.text);

describe('extractFacts', () => {
  it('keeps what the user states about themselves, sentence by sentence', () => {
    expect(texts("Hi! I live in Lisbon. What's the weather like there?")).toEqual(['I live in Lisbon.']);
    expect(texts('My favourite colour is teal and I live in Lisbon.')).toEqual(['My favourite colour is teal', 'I live in Lisbon.']);
    expect(texts('I went to a support group yesterday and it was so powerful.')).toEqual(['I went to a support group yesterday and it was so powerful.']);
    expect(texts('Remember that my sister is called Ann.')).toEqual(['My sister is called Ann.']);
  });

  it('splits compound statements into one fact per clause and keeps instructions, questions and small talk out', () => {
    expect(texts('For future reference: I live in Lisbon, I work as a nurse and I am vegetarian. say exactly: noted')).toEqual(['I live in Lisbon', 'I work as a nurse', 'I am vegetarian.']);
    expect(texts('A correction: I moved to Berlin last month, I now work as a teacher, and I eat fish again. say exactly: noted')).toEqual([
      'I moved to Berlin last month',
      'I now work as a teacher',
      'I eat fish again.',
    ]);
    expect(texts('I live in Lisbon, work as a nurse and am vegetarian.')).toEqual(['I live in Lisbon', 'I work as a nurse', 'I am vegetarian.']);
    expect(texts("Quick note: I'm engaged. paella is my favourite dish. What do you think?")).toEqual(["I'm engaged.", 'Paella is my favourite dish.']);
    expect(texts('Hi! I commute by bike, what do you think of e-bikes? lol')).toEqual(['I commute by bike']);
    // A list is one statement, not three.
    expect(texts('I like tea, coffee and cake.')).toEqual(['I like tea, coffee and cake.']);
    // A clause may open with a time or place before its subject.
    expect(texts('My phone plan is with Vodafone and every summer I go to Crete.')).toEqual(['My phone plan is with Vodafone', 'Every summer I go to Crete.']);
    // A change announced without its value stays with the clause that names it.
    expect(texts("I moved to Lisbon, I switched jobs and I'm at Umbrella Health now.")).toEqual(['I moved to Lisbon', "I switched jobs and I'm at Umbrella Health now."]);
    expect(texts("Oh, and I've changed my mind, my favourite colour is yellow. lol")).toEqual(["I've changed my mind and my favourite colour is yellow."]);
    expect(texts('Update: My feet grew, I take a 46 now. Thanks!')).toEqual(['My feet grew and I take a 46 now.']);
    // A verbless "my ..." phrase at the end names what came before it; a "my ..." clause with a verb is a statement of its own.
    expect(texts("Oh, and I'm not with O2 anymore, and I've grown close to Tom, my new best friend. lol")).toEqual(["I'm not with O2 anymore", "I've grown close to Tom, my new best friend."]);
    // A relation and its verb in -s is a statement of its own, however short.
    expect(texts('My supermarket is Aldi, and my dad collects vinyl records.')).toEqual(['My supermarket is Aldi', 'My dad collects vinyl records.']);
    expect(texts('I work as a nurse and my sister lives in Madrid.')).toEqual(['I work as a nurse', 'My sister lives in Madrid.']);
    expect(texts('I play tennis with my brother James.')).toEqual(['I play tennis with my brother James.']);
    expect(texts("I replaced my laptop with a MacBook Air, and my hair isn't black anymore.")).toEqual(['I replaced my laptop with a MacBook Air', "My hair isn't black anymore."]);
    expect(texts('I live in Lisbon, my flat is small.')).toEqual(['I live in Lisbon', 'My flat is small.']);
  });

  it('says what a statement changes: an update, a retraction, or a request to forget (never stored as a fact)', () => {
    const changes = (message: string) => extractFacts(message).map((fact) => [fact.text, fact.change ?? null]);
    expect(changes('A correction: I moved to Berlin, I eat fish again.')).toEqual([
      ['I moved to Berlin', 'update'],
      ['I eat fish again.', 'update'],
    ]);
    expect(changes("I'm no longer a nurse. I don't live in Lisbon anymore. I sold my car.")).toEqual([
      ["I'm no longer a nurse.", 'retract'],
      ["I don't live in Lisbon anymore.", 'retract'],
      ['I sold my car.', 'retract'],
    ]);
    // A retraction that names what replaced what it ended is a change.
    expect(changes('I sold my console and got a Meta Quest. I left my old network for Mastodon. I quit smoking and drinking. I sold my car and my bike. I quit smoking for good.')).toEqual([
      ['I sold my console and got a Meta Quest.', 'update'],
      ['I left my old network for Mastodon.', 'update'],
      ['I quit smoking and drinking.', 'retract'],
      ['I sold my car and my bike.', 'retract'],
      ['I quit smoking for good.', 'retract'],
    ]);
    // "New" in a name announces nothing.
    expect(changes("I'm planning a trip to New Zealand. I got a new phone, a Pixel 8.")).toEqual([
      ["I'm planning a trip to New Zealand.", null],
      ['I got a new phone, a Pixel 8.', 'update'],
    ]);
    // What was said about a value, named mid-sentence too; "forget about work" names nothing stated.
    expect(changes("I sold my old bike, ignore what I said about Waitrose and I'm hooked on Serial now. Never mind what I said about LinkedIn. Forget about work, I have two cats.")).toEqual([
      ['I sold my old bike', 'retract'],
      ['Waitrose', 'forget'],
      ["I'm hooked on Serial now.", 'update'],
      ['LinkedIn', 'forget'],
      ['I have two cats.', null],
    ]);
    expect(changes('Please forget that I live in Lisbon. I have two cats.')).toEqual([
      ['I live in Lisbon', 'forget'],
      ['I have two cats.', null],
    ]);
  });

  it('does not end a sentence after a title: the name stays in the fact', () => {
    expect(texts('My doctor is Dr. Patel. I see Mr. Smith on Fridays.')).toEqual(['My doctor is Dr. Patel.', 'I see Mr. Smith on Fridays.']);
  });

  it('reads which slots a question asks for', () => {
    expect(slotsAskedFor('Where do I live?')).toEqual(new Set(['home']));
    expect(slotsAskedFor('What is my favourite colour?')).toEqual(new Set(['my:favorite', 'my:favorite color']));
    expect(slotsAskedFor("What is my dog's name?")).toEqual(new Set(["my:dog's", "my:dog's name", 'my:dog']));
    expect(slotsAskedFor('What is my job?')).toEqual(new Set(['my:job', 'job']));
    expect(slotsAskedFor('How do I bake bread?')).toEqual(new Set());
  });

  it('never keeps questions, requests to the assistant or acknowledgements', () => {
    for (const message of ['Which city do I live in?', 'say exactly: from gemini', 'Write a haiku about my cat', 'Can you help me plan a trip?', 'I want you to act as a translator.', 'How can I lose weight fast', 'Thanks! I think so.', 'Paris is the capital of France.']) {
      expect(texts(message), message).toEqual([]);
    }
  });

  it('names the slot a newer fact replaces', () => {
    expect(factSlot('I moved to Berlin')).toBe('home');
    expect(factSlot('My name is Ada')).toBe('name');
    expect(factSlot('I work at Acme')).toBe('employer');
    expect(factSlot('I am 34 years old')).toBe('age');
    expect(factSlot('My favourite colour is teal')).toBe('my:favorite color');
    expect(factSlot('My favorite color is red')).toBe('my:favorite color');
    expect(factSlot('I went hiking')).toBeUndefined();
    expect(factSlot('I now work as a teacher')).toBe('job');
    expect(factSlot('Orange is my favourite colour.')).toBe('my:favorite color');
    expect(factSlot('My dog is called Rex')).toBe("my:dog's name");
    expect(factSlot('My new partner is Mateo.')).toBe("my:partner's name");
    expect(factSlot('My sister lives in Madrid')).toBeUndefined();
  });

  it('reads a bounded part of a long message and keeps a bounded number of facts', () => {
    const long = Array.from({ length: 40 }, (_, i) => `I visited city number ${i}.`).join(' ');
    expect(extractFacts(long)).toHaveLength(8);
    expect(extractFacts(`${'x'.repeat(3_000)} I live in Oslo.`)).toEqual([]);
  });
});

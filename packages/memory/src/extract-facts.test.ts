import { describe, expect, it } from 'vitest';
import { extractFacts, factSlot, slotsAskedFor } from './extract-facts.js';

const texts = (message: string) => extractFacts(message).map((fact) => fact.text);

describe('extractFacts', () => {
  it('keeps what the user states about themselves, sentence by sentence', () => {
    expect(texts("Hi! I live in Lisbon. What's the weather like there?")).toEqual(['I live in Lisbon.']);
    expect(texts('My favourite colour is teal and I live in Lisbon.')).toEqual(['My favourite colour is teal', 'I live in Lisbon.']);
    expect(texts('I went to a support group yesterday and it was so powerful.')).toEqual(['I went to a support group yesterday and it was so powerful.']);
    expect(texts('Remember that my sister is called Ann.')).toEqual(['My sister is called Ann.']);
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
  });

  it('reads a bounded part of a long message and keeps a bounded number of facts', () => {
    const long = Array.from({ length: 40 }, (_, i) => `I visited city number ${i}.`).join(' ');
    expect(extractFacts(long)).toHaveLength(8);
    expect(extractFacts(`${'x'.repeat(3_000)} I live in Oslo.`)).toEqual([]);
  });
});

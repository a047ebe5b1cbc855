import { type MockUpstream, startMockUpstream } from '@svc/mock-upstream';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { masterKey, startGateway, upstreamProviders } from './harness.js';

type Gateway = Awaited<ReturnType<typeof startGateway>>;

/**
 * Issue #35's conversation, replayed as an end user would through the OpenAI SDK in full mode with
 * `user` set, on the real local encoder: what the upstream model is told after a correction.
 */
describe('memory keeps up with corrections (gateway -> real adapter -> mock upstream)', () => {
  let upstream: MockUpstream;
  let gateway: Gateway;
  let client: OpenAI;

  beforeAll(async () => {
    upstream = await startMockUpstream({ tokens: 4 });
    gateway = await startGateway({ ...upstreamProviders(upstream.url), SVC_SENTENCE_ENCODER: 'minilm' });
    client = new OpenAI({ baseURL: `${gateway.inferenceUrl}/v1`, apiKey: masterKey, maxRetries: 0, defaultHeaders: { 'x-intelligence-mode': 'full' } });
  });
  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  /** Says `content` as `user`, waits for memory to store what was said, returns the memory the upstream was sent (its system message). */
  async function say(user: string, content: string): Promise<string> {
    upstream.resetStats();
    const { response } = await client.chat.completions.create({ model: 'openai/gpt-4o-mini', user, messages: [{ role: 'user', content }] }).withResponse();
    await gateway.runtime.memory.idle();
    const sent = upstream.stats().lastRequest!.body as { messages: { role: string; content: string }[] };
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content });
    const system = sent.messages.filter((m) => m.role === 'system').map((m) => m.content);
    expect(response.headers.get('x-svc-memory-injected')).toBe(String(system.length === 0 ? 0 : system[0]!.split('\n').length - 1));
    return system.join('\n');
  }

  /** The facts GET /v1/memory lists for `user`, sorted. */
  async function storedTexts(user: string): Promise<string[]> {
    const listed = await fetch(`${gateway.inferenceUrl}/v1/memory?user=${encodeURIComponent(user)}`, { headers: { authorization: `Bearer ${masterKey}` } });
    return ((await listed.json()) as { data: { text: string }[] }).data.map((m) => m.text).sort();
  }

  it('tells the model the corrected city, job and diet, never the superseded ones, and stores clean facts', async () => {
    const ada = `ada-${Math.random()}`;
    await say(ada, 'For future reference: I live in Lisbon, I work as a nurse and I am vegetarian. say exactly: noted');
    await say(ada, 'A correction: I moved to Berlin last month, I now work as a teacher, and I eat fish again. say exactly: noted');

    const city = await say(ada, 'Which city do I live in?');
    expect(city).toContain('I moved to Berlin last month');
    expect(city).not.toContain('Lisbon');

    const job = await say(ada, 'What is my job?');
    expect(job).toContain('I now work as a teacher');
    expect(job).not.toContain('nurse');

    const diet = await say(ada, 'Any dinner idea that fits my diet?');
    expect(diet).toContain('I eat fish again');
    expect(diet).not.toContain('vegetarian');

    const both = await say(ada, 'Where do I live and what is my job?');
    expect(both).toContain('Berlin');
    expect(both).toContain('teacher');
    expect(both).not.toMatch(/Lisbon|nurse/);

    // What is kept: one fact per clause, no instruction glued on; the superseded ones are history.
    expect(await storedTexts(ada)).toEqual(['I eat fish again.', 'I moved to Berlin last month', 'I now work as a teacher'].sort());

    // Another end user of the same key is told nothing of it.
    expect(await say(`bob-${Math.random()}`, 'What is my job?')).toBe('');
  });

  it('replaces a fact by a later one about the same thing with a value of the same kind, without a change word (rule 7)', async () => {
    const kim = `kim-${Math.random()}`;
    await say(kim, 'I have red hair. I work as a nurse.');
    await say(kim, 'I dyed my hair blonde.');
    const hair = await say(kim, 'What colour is my hair?');
    expect(hair).toContain('I dyed my hair blonde');
    expect(hair).not.toContain('red');
    // Two things of one kind that do not share a thing stay side by side.
    await say(kim, 'I like tea.');
    await say(kim, 'I like coffee.');
    expect(await storedTexts(kim)).toEqual(['I dyed my hair blonde.', 'I like coffee.', 'I like tea.', 'I work as a nurse.'].sort());
  });

  it('replaces the one fact naming a value of the kind a change names, though they share no word (rule 8: a bank, a carrier)', async () => {
    const ana = `ana-${Math.random()}`;
    await say(ana, "I bank with ING. I'm saving up for a house. I stopped using Brave. My mobile carrier is Telekom. I play the piano.");
    await say(ana, 'Update: I moved my account to Revolut, and I ported my number to O2.');
    // Before rule 8, "I bank with ING." stayed in force beside its correction here: no shared word, no clearly closest fact.
    expect(await storedTexts(ana)).toEqual(['I moved my account to Revolut', 'I ported my number to O2.', "I'm saving up for a house.", 'I stopped using Brave.', 'I play the piano.'].sort());
    const bank = await say(ana, 'Which bank am I with?');
    expect(bank).toContain('Revolut');
    expect(bank).not.toContain('ING');
    const carrier = await say(ana, 'Which mobile carrier am I with?');
    expect(carrier).toContain('O2');
    expect(carrier).not.toContain('Telekom');
  });

  it('reads no name from a capital that opens a sentence: a new favourite colour does not replace the carrier (rule 8)', async () => {
    const lea = `lea-${Math.random()}`;
    await say(lea, "I'm on Vodafone for my phone plan. I play the piano. I'm saving up for a house.");
    await say(lea, 'Orange is my favourite colour now.');
    // Before the opening capital was read as the sentence's, "Orange" named the carrier and replaced Vodafone.
    expect(await storedTexts(lea)).toEqual(["I'm on Vodafone for my phone plan.", 'I play the piano.', "I'm saving up for a house.", 'Orange is my favourite colour now.'].sort());
    expect(await say(lea, 'Which mobile carrier am I with?')).toContain('Vodafone');
  });

  it('replaces the one habit held at the time of day a change names, though they share no word (rule 9)', async () => {
    const max = `max-${Math.random()}`;
    await say(max, 'Before bed I always do a crossword. I bank with ING. I play the piano. I go climbing every weekend.');
    await say(max, 'I end my days with meditation now.');
    expect(await storedTexts(max)).toEqual(['I bank with ING.', 'I end my days with meditation now.', 'I go climbing every weekend.', 'I play the piano.'].sort());
    const evening = await say(max, 'What do I do before going to sleep?');
    expect(evening).toContain('meditation');
    expect(evening).not.toContain('crossword');
  });

  it('recalls the current fact through the superseded one: the old wording matches the question, the new fact is told', async () => {
    const joe = `joe-${Math.random()}`;
    await say(joe, 'I work as a nurse.');
    await say(joe, 'I now teach kids.');
    expect(await storedTexts(joe)).toEqual(['I now teach kids.']);
    // "line of work" is nearer "I work as a nurse" than "I now teach kids" (under the floor alone).
    const job = await say(joe, 'What is my line of work?');
    expect(job).toContain('I now teach kids');
    expect(job).not.toContain('nurse');
    // A retraction ends the chain: the old wording then lends its match to nothing.
    await say(joe, 'I no longer teach kids.');
    expect(await storedTexts(joe)).not.toContain('I now teach kids.');
    expect(await say(joe, 'What is my line of work?')).not.toMatch(/nurse|teach kids\./);
  });

  it('links corrections about a relative however the relative is named, and a retraction that names what replaced it', async () => {
    const zoe = `zoe-${Math.random()}`;
    await say(zoe, 'My daughter is learning the violin. My father has a big collection of stamps. I play games on a Nintendo Switch. I bank with ING.');
    await say(zoe, 'Update: my daughter switched to the drums. These days my dad is into coins. I sold my console and got a Steam Deck.');
    // Before, "my daughter is learning" was read as the user's own attribute and "my dad" as another holder than "my father":
    // neither correction was linked; "I sold my console ..." was a retraction naming no stored value.
    expect(await storedTexts(zoe)).toEqual(['I bank with ING.', 'I sold my console and got a Steam Deck.', 'My daughter switched to the drums.', 'These days my dad is into coins.'].sort());
    const instrument = await say(zoe, 'What instrument does my daughter play?');
    expect(instrument).toContain('drums');
    expect(instrument).not.toContain('violin');
  });

  it('forgets what the user takes back', async () => {
    const eve = `eve-${Math.random()}`;
    await say(eve, 'I live in Lisbon and I work as a nurse.');
    expect(await say(eve, 'What do I do for work?')).toContain('nurse');
    await say(eve, "I'm no longer a nurse. Please forget that I live in Lisbon.");
    expect(await say(eve, 'Which city do I live in?')).not.toContain('Lisbon');
    const job = await say(eve, 'What do I do for work?');
    expect(job).not.toContain('I work as a nurse');
    // What was said about a value, named mid-sentence: before, "what I said about Waitrose" named no statement and nothing was forgotten.
    await say(eve, 'I do my food shopping at Waitrose.');
    await say(eve, 'Oh, and never mind what I said about Waitrose, I play the piano.');
    expect(await storedTexts(eve)).toEqual(['I play the piano.', "I'm no longer a nurse."].sort());
  });
});

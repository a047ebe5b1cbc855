import { extractEntities, type MemoryEntity } from './entities.js';

/** A durable fact an end user stated about themselves, as memory stores it. */
export interface ExtractedFact {
  /** The statement, as the user worded it (one sentence, whitespace folded). */
  text: string;
  /**
   * What the fact is about when it can only hold one value at a time (`name`, `home`, `employer`,
   * `age`, `birthday`, `my:<thing>`): a newer fact of the same slot replaces the older one.
   */
  slot?: string;
  entities: MemoryEntity[];
}

export interface ExtractFactsOptions {
  /** Characters of the message read at most (a pasted document is not a statement about oneself). Default 2,000. */
  maxChars?: number;
  /** Facts kept from one message at most. Default 8. */
  maxFacts?: number;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** Words that open a question even without its question mark. */
const QUESTION_START = /^(?:what|who|whom|whose|where|when|why|how|which|do|does|did|is|are|was|were|can|could|would|should|will|shall|may|might|have|has|am)\b/i;
/** Openers that ask the assistant for something rather than state a fact. */
const REQUEST =
  /^(?:please\b|(?:say|write|tell|give|list|explain|translate|summari[sz]e|show|make|create|generate|help|answer|repeat|ignore|describe|compare|draft|rewrite|fix|find|suggest|recommend|calculate|count|return|reply|respond|output|print)\b|i (?:want|need|would like|'d like|wish) (?:you|to know|help)\b|let me\b|let's\b|can you\b|could you\b)/i;
/** A first-person subject near the start: the user talking about themselves. */
const FIRST_PERSON = /\b(?:i|i'm|i've|i'd|i'll|im|ive|my|mine|me|we|we're|we've|our|us)\b/i;
/** Statements with no lasting content (acknowledgements, hedges). */
const FILLER = /^(?:i (?:think|guess|see|agree|mean|know|understand|hope|suppose|believe) (?:so|that'?s? (?:right|it|true)|it)?|i'm (?:fine|good|ok|okay|sorry|not sure)|me too|my bad|my pleasure|thank(?:s| you)\b.*)[.!]*$/i;

const SLOTS: readonly (readonly [RegExp, string])[] = [
  [/\b(?:my name is|i'?m called|i am called|call me)\b/i, 'name'],
  [/\b(?:i (?:now |currently )?live in|i'?m living in|i am living in|i (?:have )?moved to|i'?m based in|i am based in|my home(?:town)? is|i reside in)\b/i, 'home'],
  [/\b(?:i'?m from|i am from|i was born in|i come from)\b/i, 'origin'],
  [/\b(?:i (?:now |currently )?work (?:at|for)|i'?m employed (?:at|by)|i am employed (?:at|by)|my employer is)\b/i, 'employer'],
  [/\b(?:i work as|my job is|my profession is|i'?m working as)\b/i, 'job'],
  [/\b(?:i'?m|i am) \d{1,3}(?: years? old)?\b/i, 'age'],
  [/\b(?:my birthday is|i was born on)\b/i, 'birthday'],
];

/** `my favourite colour is ...` -> `my:favorite color`: one value per thing the user owns or prefers. */
const MY_THING = /\bmy ((?:[a-z']+ ){0,2}[a-z']+) (?:is|are)\b/i;

/** One spelling per thing: `favourite colour` and `favorite color` name one slot. */
export function normalizeThing(thing: string): string {
  return thing.toLowerCase().replace(/\bfavourite\b/g, 'favorite').replace(/\bcolour\b/g, 'color');
}

/** The slot of a statement, if it names one. */
export function factSlot(sentence: string): string | undefined {
  for (const [pattern, slot] of SLOTS) if (pattern.test(sentence)) return slot;
  const thing = MY_THING.exec(sentence)?.[1];
  return thing ? `my:${normalizeThing(thing)}` : undefined;
}

/** Question forms of the named slots, mirroring the statements of {@link SLOTS}. */
const ASKED: readonly (readonly [RegExp, string])[] = [
  [/\b(?:(?:i'?m|i am|am i) called|call me)\b/i, 'name'],
  [/\b(?:do i live|am i living|am i based|do i reside)\b/i, 'home'],
  [/\b(?:was i born in|where was i born|am i from|do i come from)\b/i, 'origin'],
  [/\b(?:do i work (?:at|for)|where do i work|am i employed)\b/i, 'employer'],
  [/\b(?:do i work as|am i working as)\b/i, 'job'],
  [/\bhow old am i\b/i, 'age'],
  [/\b(?:when was i born|was i born on)\b/i, 'birthday'],
];
/** "my <thing>" in a question that names a slot of its own. */
const NAMED_THINGS: Readonly<Record<string, string>> = { name: 'name', job: 'job', profession: 'job', occupation: 'job', birthday: 'birthday', age: 'age', home: 'home', hometown: 'home', employer: 'employer', birthplace: 'origin' };

/**
 * The slots a question asks for, so recall can favour the fact that fills one: "What is my
 * favourite colour?" asks for `my:favorite color`, "Where do I live?" for `home`; any "my <thing>"
 * asks for `my:<thing>` (and for the named slot a thing names: "my job" for `job`).
 */
export function slotsAskedFor(question: string): Set<string> {
  const slots = new Set<string>();
  for (const [pattern, slot] of ASKED) if (pattern.test(question)) slots.add(slot);
  const text = normalizeThing(question);
  for (const match of text.matchAll(/\bmy ((?:[a-z']+ ){0,2}[a-z']+)/g)) {
    const words = match[1]!.split(' ');
    for (let n = 1; n <= words.length; n++) {
      const thing = words.slice(0, n).join(' ');
      slots.add(`my:${thing}`);
      const named = NAMED_THINGS[thing];
      if (named) slots.add(named);
    }
  }
  // "my dog's name" asks about the dog: `my:dog`.
  for (const match of text.matchAll(/\bmy ([a-z]+)'s\b/g)) slots.add(`my:${match[1]}`);
  return slots;
}

/** Strips a leading "remember (that)" so the fact itself is kept. */
function unwrapReminder(sentence: string): string {
  const fact = sentence.replace(/^(?:please )?(?:remember|note|keep in mind|for the record|fyi|btw|by the way)(?: that)?[,:]?\s+/i, '');
  return fact === sentence ? fact : fact.charAt(0).toUpperCase() + fact.slice(1);
}

/** Titles and abbreviations after which the segmenter ends a sentence that goes on ("Dr. Patel"). */
const ABBREVIATION = /\b(?:dr|mr|mrs|ms|mx|prof|st|mt|jr|sr|capt|lt|col|gen|rev|no|vs|approx)\.\s*$/i;

/** The sentences of a text, rejoined where the segmenter cut after an abbreviation. */
function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  let carried = '';
  for (const { segment } of segmenter.segment(text)) {
    carried += segment;
    if (!ABBREVIATION.test(carried)) {
      sentences.push(carried);
      carried = '';
    }
  }
  if (carried) sentences.push(carried);
  return sentences;
}

/** "My colour is teal and I live in Lisbon" holds two facts: split where a new first-person clause starts. */
const CLAUSE_BREAK = /,? (?:and|but) (?=(?:i|i'm|my|we|our)\b)/i;

/** Whether a sentence is a statement the user made about themselves (not a question, a request or filler). */
export function isSelfStatement(sentence: string): boolean {
  const words = sentence.split(/\s+/).length;
  if (words < 3 || words > 60) return false;
  if (sentence.endsWith('?') || QUESTION_START.test(sentence) || REQUEST.test(sentence) || FILLER.test(sentence)) return false;
  // The first-person word must come early: "Write about my day" fails on REQUEST; "Paris is where I live" passes.
  const match = FIRST_PERSON.exec(sentence);
  return match !== null && match.index <= 60;
}

/**
 * The durable facts in what an end user said: each sentence in which they state something about
 * themselves (where they live, their name, what they like, what happened to them), never
 * questions, requests to the assistant or acknowledgements. Pure and synchronous; the caller
 * redacts PII first when the request or organisation asks for it.
 */
export function extractFacts(text: string, options: ExtractFactsOptions = {}): ExtractedFact[] {
  const maxChars = options.maxChars ?? 2_000;
  const maxFacts = options.maxFacts ?? 8;
  const facts: ExtractedFact[] = [];
  const seen = new Set<string>();
  for (const segment of sentencesOf(text.slice(0, maxChars))) {
    const clauses = segment.split(/\n+/).flatMap((line) => line.split(CLAUSE_BREAK));
    for (const clause of clauses) {
      const sentence = unwrapReminder(clause.replace(/\s+/g, ' ').trim().replace(/^[-*•>\d.)\s]+/, ''));
      if (!isSelfStatement(sentence)) continue;
      const key = sentence.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      const slot = factSlot(sentence);
      facts.push({ text: sentence, ...(slot ? { slot } : {}), entities: extractEntities(sentence) });
      if (facts.length >= maxFacts) return facts;
    }
  }
  return facts;
}

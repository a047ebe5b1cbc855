// What a statement is about when it can hold one value at a time (its slot), and which slots a
// question asks for: "I live in Lisbon" fills `home`, "Where do I live?" asks for it.

/** People and animals of the user's ("my sister", "my dog"): "my sister is Ann" names her, as "my sister's name is Ann" does. */
export const RELATION_NOUNS =
  'sister|brother|mother|mom|mum|father|dad|parents|wife|husband|partner|son|daughter|kids|children|child|baby|dog|cat|pet|friend|best friend|boss|manager|colleague|roommate|flatmate|neighbour|neighbor|grandmother|grandfather|grandma|grandpa|aunt|uncle|cousin|girlfriend|boyfriend|fiancé|fiance|doctor|dentist|landlord|teacher|coach|therapist';

/** Slots whose value a statement of another wording never corrects: a name, a birthday, where one is from. */
const LASTING_SLOTS: ReadonlySet<string> = new Set(['name', 'birthday', 'origin']);

/** Whether a stored fact's slot is one a statement of another wording never corrects (`LASTING_SLOTS`). */
export const lastingSlot = (slot: string | null): boolean => slot !== null && LASTING_SLOTS.has(slot);

/**
 * Whether the correction rules that match by wording or kind of value must leave a stored fact of
 * `stored` slot alone for a statement of `fact` slot: a lasting slot, or two different known slots.
 */
export const slotsKeepApart = (fact: string | undefined, stored: string | null): boolean =>
  lastingSlot(stored) || (fact !== undefined && stored !== null && stored !== fact);

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
const MY_THING = /\bmy ((?:[a-z']+ ){0,2}[a-z']+) (?:is|are)\b(?! (?:not|called|named|based|from|living|working|in|at|moving|staying)\b)/i;
/** `my dog is called Rex` -> `my:dog's name`, as `my dog's name is Rex` gives. */
const MY_NAMED = /\bmy ((?:[a-z]+ ){0,2}[a-z]+) (?:is|are) (?:called|named)\b/i;
const RELATION = new RegExp(`^(?:${RELATION_NOUNS})$`);
/** Words that date a statement without changing what it is about ("I now work as ..." fills `job` as "I work as ..." does). */
const ADVERBS = /\b(?:now|currently|these days|nowadays|again|actually|still|also|just|recently|instead|last (?:week|month|year)|this (?:week|month|year)|as of this year)\b,?\s*/gi;

/**
 * A statement without the words that only date it: "I'm learning Arabic now instead" is about
 * what "I'm learning Arabic" is about. What memory embeds, so a correction lands near the fact it
 * corrects and near the questions that ask for either.
 */
export function statementCore(text: string): string {
  const core = text.replace(ADVERBS, '').replace(/\s+([.,!?])/g, '$1').replace(/\s{2,}/g, ' ').replace(/,\s*$/, '').trim();
  return core.length > 0 ? core.charAt(0).toUpperCase() + core.slice(1) : text;
}

/** One spelling per thing: `favourite colour` and `favorite color` name one slot. */
export function normalizeThing(thing: string): string {
  return thing
    .toLowerCase()
    .replace(/\bfavourite\b/g, 'favorite')
    .replace(/\bcolour\b/g, 'color')
    .replace(/^(?:new|current|old|present) /, '');
}



/** The slot of a statement, if it names one. */
export function factSlot(sentence: string): string | undefined {
  // "Paella is my favourite dish" gives the slot "my favourite dish is paella" gives.
  const core = statementCore(sentence).replace(/^(.{1,40}?) (is|are) (my .+?)[.!]?$/i, '$3 $2 $1');
  for (const [pattern, slot] of SLOTS) {
    const found = pattern.exec(core);
    // An employer has a name: "I work at Acme", not "I work at the client's site".
    if (found && (slot !== 'employer' || /^\s*(?:the |a |an )?[A-Z0-9]/.test(core.slice(found.index + found[0].length)))) return slot;
  }
  const named = MY_NAMED.exec(core)?.[1];
  if (named) return `my:${normalizeThing(named)}'s name`;
  const mine = MY_THING.exec(core);
  if (!mine) return undefined;
  const thing = normalizeThing(mine[1]!);
  const value = core.slice(mine.index + mine[0].length).trim();
  return RELATION.test(thing) && /^[A-Z]/.test(value) ? `my:${thing}'s name` : `my:${thing}`;
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
const NAMED_THINGS: Readonly<Record<string, string>> = {
  name: 'name',
  job: 'job',
  profession: 'job',
  occupation: 'job',
  birthday: 'birthday',
  age: 'age',
  home: 'home',
  hometown: 'home',
  employer: 'employer',
  birthplace: 'origin',
  // The encoder's attributes (`attribute-prototypes.ts`) by the noun a question names them with.
  diet: 'diet',
  commute: 'commute',
  partner: "my:partner's name",
  'relationship status': 'relationship',
};

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

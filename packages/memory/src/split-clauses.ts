// How a message is cut into the clauses that may each be one fact: sentences (also where the next
// one starts in lower case: "I eat fish again. say exactly: noted"), then clauses where a new
// first-person statement starts ("..., I now work as a teacher, and I eat fish again"), with
// openers ("A correction:", "Hi!", "For future reference:") and small talk ("lol", "Thanks!") cut off.

import { RELATION_NOUNS } from './fact-slots.js';

/** Titles and abbreviations after which a sentence goes on ("Dr. Patel"). */
const ABBREVIATION = /\b(?:dr|mr|mrs|ms|mx|prof|st|mt|jr|sr|capt|lt|col|gen|rev|no|vs|approx|e\.g|i\.e|etc)\.\s*$/i;

/** The sentences of a text: cut after . ! ? or a line break, rejoined after an abbreviation. */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  let carried = '';
  for (const piece of text.split(/(?<=[.!?])\s+|\s*\n+\s*/)) {
    carried = carried ? `${carried} ${piece}` : piece;
    if (!ABBREVIATION.test(carried)) {
      sentences.push(carried);
      carried = '';
    }
  }
  if (carried) sentences.push(carried);
  return sentences.filter((s) => s.trim() !== '');
}

/** Words a clause may open with before its subject ("actually, I ...", "these days my ..."). */
const LEAD = String.raw`(?:(?:actually|also|oh|and|so|plus|btw|anyway|then|now|nowadays|these days|currently|recently|oh and|by the way|most days|correction:|a correction:|update:)[,\s]+)*`;
/** A first-person subject. */
const SUBJECT = String.raw`(?:i|i'm|im|i've|i'd|i'll|my|we|we're|we've|our)\b`;
/** A statement that names its value first: "paella is my favourite dish", "Tom became my boss". */
const VALUE_FIRST = String.raw`[\w' .-]{1,40}? (?:is|are|isn't|aren't|was|became|has become) (?:now )?(?:my|our)\b`;
/** Commands that take a fact back ("forget that ..."). */
const FORGET = '(?:please )?(?:forget|disregard|scratch|ignore|never mind) ';
/** Verbs after which an elided subject is the user's: "I live in Lisbon, work as a nurse and am vegetarian". */
const ELIDED = /^(?:am|work|live|have|own|drive|study|speak|support|use|moved|switched|now work|now live|just turned)\b/i;
/** Instructions glued to a statement without a full stop: "I live in Lisbon say exactly: noted". */
const GLUED_REQUEST = /\s+(?=(?:say exactly|reply with|answer with|respond with|just say|please (?:say|reply|answer|respond|confirm))\b)/i;

/** Questions and requests glued to a statement: "I live in Lisbon, what's the weather like?" */
const ASIDE = String.raw`(?:what|who|where|when|why|how|which|can you|could you|would you|will you|do you|please|say|tell me)\b`;
/** A short time or place phrase before the subject: "every summer I go to Crete", "before bed I read". */
const ADVERBIAL = String.raw`(?:(?:every|each|most|on|in|at|before|after|during|since|by|for) [\w']+(?: [\w']+)?,?\s+)?`;
const CLAUSE_START = new RegExp(String.raw`^\s*(?:${LEAD}${ADVERBIAL}${SUBJECT}|${VALUE_FIRST}|${FORGET}|${ASIDE})`, 'i');
/** Where a clause may end: a comma or semicolon, or "and" / "but" / "so" between clauses. */
const JOINT = /\s*[,;]\s*(?:(?:and|but|so|plus)\s+)?|\s+(?:and|but|so|plus)\s+/gi;
/** A verbless "my ..." phrase that ends the sentence names what came before it ("I've grown close to Tom, my new best friend"): not a statement of its own. */
const APPOSITIVE = /^\s*(?:my|our) (?!.*\b(?:is|are|was|were|has|have|had|got|gets|became|grew|went|moved|changed|\w+n't|\w+ed)\b)(?:[\w'-]+ ){0,3}[\w'-]+\s*[.!]*\s*$/i;
/** "my <relation>" and a verb in -s: a statement about that relation ("..., and my dad collects stamps"), not a verbless phrase. */
const RELATION_DOES = new RegExp(String.raw`^\s*(?:[Mm]y|[Oo]ur) (?:(?:new|old|younger|older|little|big) )?(?:${RELATION_NOUNS}) [a-z]+s\b`);
/** A sentence whose subject is the user, so an elided subject after a joint is theirs too. */
const USER_SUBJECT = new RegExp(String.raw`^\s*${LEAD}(?:i|i'm|im|i've)\b`, 'i');

/** Cuts a sentence where a new statement starts; a fragment that starts none stays with the clause before it. */
export function clausesOf(sentence: string): string[] {
  const glued = sentence.split(GLUED_REQUEST);
  if (glued.length > 1) return glued.flatMap((part) => clausesOf(part));
  const elides = USER_SUBJECT.test(sentence);
  const clauses: string[] = [];
  let start = 0;
  for (const joint of sentence.matchAll(JOINT)) {
    const rest = sentence.slice(joint.index + joint[0].length);
    if ((!CLAUSE_START.test(rest) && !(elides && ELIDED.test(rest))) || (APPOSITIVE.test(rest) && !RELATION_DOES.test(rest))) continue;
    clauses.push(sentence.slice(start, joint.index));
    start = joint.index + joint[0].length;
  }
  clauses.push(sentence.slice(start));
  const cut = clauses.map((clause, i) => (i > 0 && elides && ELIDED.test(clause.trim()) ? `I ${clause.trim()}` : clause.trim())).filter((clause) => clause !== '');
  return withPrefacesJoined(cut);
}

/** A change announced without its new value: "I switched jobs", "I've changed my mind", "I had my birthday", "my feet grew". */
const PREFACE = /^(?:(?:oh|and|so|actually|well),?\s+)*(?:i(?:'ve| have)? (?:switched|changed|swapped|moved|had|made) (?:my |a |the )?[a-z']+|my [a-z']+ (?:grew|shrank|changed))$/i;

/** A preface stays with the clause that names the value ("I switched jobs and I'm at Umbrella Health now"): alone it would name none. */
function withPrefacesJoined(clauses: readonly string[]): string[] {
  const joined: string[] = [];
  let preface = '';
  for (const [i, clause] of clauses.entries()) {
    if (i < clauses.length - 1 && PREFACE.test(clause.replace(OPENER, ''))) preface = `${preface}${clause} and `;
    else {
      joined.push(`${preface}${preface && !/^I\b/.test(clause) ? clause.charAt(0).toLowerCase() + clause.slice(1) : clause}`);
      preface = '';
    }
  }
  return joined;
}

/** Openers that only frame what follows ("A correction:", "Hi!", "Just so you know,"). */
const OPENER =
  /^(?:(?:hi|hello|hey|ok|okay|oh|well|so|yes|yeah|and|also|anyway|btw|fyi|ps|by the way|just so you know|for future reference|for the record|for context|just fyi|quick note|note|a correction|correction|quick correction|small correction|update|an update|quick update|some news|news|heads up|remember|please remember|keep in mind|note that|remember that|just to let you know)\b(?: that)?[\s,:!.-]+)+/i;
/** A short label before a colon: "My news: ...". */
const LABEL = /^[\w' ]{1,30}:\s+(?=\S)/;
/** Small talk after a statement. */
const TRAILER = /(?:[\s,]+(?:lol|haha|hehe|thanks|thank you|cheers|please|:\)|:-\)|!)+)+[.!]*$|,\s*not (?:what|where|who|how) i (?:said|told you|mentioned)(?: before| earlier)?/i;
/** Openers that announce a correction for everything after them. */
const CORRECTION_OPENER = /^(?:a |quick |small )?(?:correction|update|an update|quick update|actually)\b|^i got that wrong\b/i;

export interface Clause {
  text: string;
  /** The message announced a correction ("A correction: ...", "Actually, ..."). */
  corrects: boolean;
}

/** A clause without its openers, list markers and trailing small talk, first letter upper case. */
export function cleanClause(raw: string): Clause {
  let text = raw.replace(/\s+/g, ' ').trim().replace(/^[-*•>\d.)\s]+/, '');
  let corrects = false;
  for (let i = 0; i < 3; i++) {
    const before = text;
    if (CORRECTION_OPENER.test(text)) corrects = true;
    text = text.replace(OPENER, '');
    if (LABEL.test(text) && !/^(?:say|write|reply|answer|respond|translate)\b/i.test(text)) text = text.replace(LABEL, '');
    text = text.replace(TRAILER, '').trim();
    if (text === before) break;
  }
  return { text: text.charAt(0).toUpperCase() + text.slice(1), corrects };
}

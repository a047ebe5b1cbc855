import type { VectorMatch } from '@svc/semantic';
import { holderOf } from './corrections.js';
import type { ExtractedFact } from './extract-facts.js';
import { slotsKeepApart } from './fact-slots.js';
import { linkableChange } from './kind-links.js';
import { attributeOf, type StoredMemory } from './memory-points.js';
import { sameHolderStates } from './subject-links.js';

/**
 * The last resort of a change that no other rule linked (issue #35, thirteenth pass): a habit
 * is held at a time of day, and one time of day holds one habit of the user's. A change that
 * states a habit at a time ("I end my days with yoga now") replaces the **one** stored fact of
 * the same holder that states a habit at that same time ("Before bed I always read"), whatever
 * the wording: the two share no word and the encoder finds the activities apart, yet the time
 * says they are one routine. Two stored habits at that time link nothing (the rule does not
 * guess), nor does a statement with a number ("I get up at 7": a time, not a habit), an event
 * or plan, a fact of another named slot, or one the encoder places near an attribute the change
 * is not near.
 */

/** Times of day a habit is held at, each by the phrases that place a statement there (general phrasing, not a list of activities). */
const TIMES: readonly (readonly [string, RegExp])[] = [
  ['morning', /\b(?:(?:every|each|in the|on) mornings?|mornings|(?:start|begin) (?:my|the|each|every) days?|morning (?:routine|ritual|habit))\b/i],
  ['midday', /\b(?:at lunch(?:time)?|(?:during|on) (?:my|the) lunch break|at midday|at noon)\b/i],
  ['evening', /\b(?:(?:every|each|in the|on) (?:evening|night)s?|evenings|at night|nightly|before (?:bed|sleep|sleeping|going to sleep)|bedtime|(?:evening|night) (?:routine|ritual|habit)|(?:end|finish) (?:my|the|each|every) days?)\b/i],
  ['weekend', /\b(?:at|on|over|every) (?:the )?weekends?\b/i],
];

/** A number: a clock time or an amount ("I get up at 7", "I run 5k every morning") is what the statement gives, not a habit's activity. */
const NUMBER = /\d/;

/** The one time of day a statement places a habit at, if it names exactly one. */
export function habitTime(text: string): string | undefined {
  const times = TIMES.filter(([, pattern]) => pattern.test(text)).map(([time]) => time);
  return times.length === 1 ? times[0] : undefined;
}

/** The stored fact of the same holder that alone states a habit at the time of day a change states one at, if exactly one does. */
export function oneHabitOfItsTime(fact: ExtractedFact, matches: readonly VectorMatch[], options: { written: ReadonlySet<string> }): StoredMemory | undefined {
  const time = habitTime(fact.text);
  if (time === undefined || NUMBER.test(fact.text) || !linkableChange(fact)) return undefined;
  const holder = holderOf(fact.text);
  const same: StoredMemory[] = [];
  for (const { match, record } of sameHolderStates(matches, holder, options.written)) {
    if (habitTime(record.text) !== time) continue;
    // A habit at that time the change may not replace still competes: the rule does not guess past it.
    const attribute = attributeOf(match.payload);
    if (NUMBER.test(record.text) || slotsKeepApart(fact.slot, record.slot) || (attribute !== undefined && attribute !== fact.attribute)) return undefined;
    same.push(record);
  }
  return same.length === 1 ? same[0] : undefined;
}

import type { VectorMatch } from '@svc/semantic';
import type { ExtractedFact } from './extract-facts.js';
import { RELATION_NOUNS } from './fact-slots.js';
import { attributeOf, recordOf, type StoredMemory } from './memory-points.js';
import { contentWords } from './recall-cues.js';

/**
 * What a new statement does to the facts its end user stated before:
 * - `merge`: it restates a stored fact (near-duplicate): that row takes the new wording;
 * - `supersede`: it changes an attribute a stored fact gave (the same slot, or a change announced
 *   and the closest fact of the same holder): a new row; the old one is kept as history, never recalled;
 * - `remove`: it takes a stored fact back ("I no longer ...", "forget that ..."): that row is deleted;
 *   `store` says whether the statement itself is kept (not for "forget that ...");
 * - `add`: nothing it changes: a new row; `skip`: a "forget that ..." that matches nothing.
 */
export type WriteDecision =
  | { kind: 'merge'; into: StoredMemory }
  | { kind: 'supersede'; old: StoredMemory }
  | { kind: 'remove'; old: StoredMemory; store: boolean }
  | { kind: 'add' }
  | { kind: 'skip' };

/** Similarities at which statements change stored facts (calibrated by `pnpm --filter @svc/evals memory:updates`). */
export interface CorrectionSettings {
  /** A new fact this close to a stored one restates it. */
  mergeSimilarity: number;
  /** Whether statements change stored facts at all (false: only near-duplicates merge). */
  corrections: boolean;
  /** A statement that announces a change supersedes the closest fact of the same holder at least this close. */
  updateSimilarity: number;
  /** A retraction removes the closest fact of the same holder at least this close that shares a word with it. */
  retractSimilarity: number;
}

/** Relations whose own attributes a statement may give: "my sister lives in Madrid" is about the sister, not the user. */
const RELATION = new RegExp(`^my (?:(?:new|old|current|former|ex|late|younger|older|little|big|eldest|youngest) )?(${RELATION_NOUNS})(?:'s)?\\b`, 'i');
/** Adverbs that may open a statement before its subject. */
const LEADING_ADVERBS = /^(?:(?:actually|also|now|nowadays|these days|currently|recently|as of [a-z ]+?|since [a-z ]+?),?\s+)+/i;
/**
 * Words after which "my X" names who or what X is, the user's own attribute ("my partner is Sam",
 * "my dog is called Rex"), not what X does or where X is ("my daughter is learning the violin",
 * "my dad is into coins", "my sister is in Madrid"): no verb in -ing, no preposition, no article.
 */
const OWN_ATTRIBUTE =
  /^(?:(?:'s )?name (?:is|was)|(?:is|are|was) (?:called|named)|(?:is|are|was|has been|isn't|aren't) (?:now |still )?(?!(?:based|from|in|at|on|into|with|off|out|away|back|over|about|a|an|very|so|really)\b))/i;
/** A verb in -ing after the relation's "is": what the relation is doing, written in lower case (a name in -ing is capitalised). */
const DOING = /^(?:is|are|was|has been|isn't|aren't) (?:now |still )?[a-z]+ing\b/;
/** Words for one relation, read as one holder: "my dad collects stamps" and "my father collects coins" are about the same person. */
const SAME_RELATION: Readonly<Record<string, string>> = { dad: 'father', mom: 'mother', mum: 'mother', grandma: 'grandmother', grandpa: 'grandfather', flatmate: 'roommate', neighbor: 'neighbour', fiance: 'fiancé', kids: 'children' };

/**
 * Whose attribute a statement gives: `i` for the user's own ("I live in Lisbon", "my favourite
 * colour is teal", "my manager is Grace"), or `my <relation>` for someone or something of theirs
 * that a statement describes ("my sister lives in Madrid", "my dog is called Rex").
 */
export function holderOf(text: string): string {
  const opened = text.replace(LEADING_ADVERBS, '');
  const relation = RELATION.exec(opened.toLowerCase());
  if (!relation) return 'i';
  const rest = opened.slice(relation[0].length).trim();
  if (OWN_ATTRIBUTE.test(rest) && !DOING.test(rest)) return 'i';
  const noun = relation[1]!;
  return `my ${SAME_RELATION[noun] ?? noun}`;
}

interface Neighbour {
  record: StoredMemory;
  score: number;
  /** The attribute the encoder placed the stored fact near, sure or not. */
  attribute: string | undefined;
}

/** The words of a statement that carry its value: its last content word, its names and numbers. */
function valueWords(statement: string): Set<string> {
  const bare = statement.replace(/\b(?:now|nowadays|these days|currently|again|instead|actually|anymore|any more)\b/gi, '');
  const words = [...contentWords(bare)];
  const named = contentWords(bare.match(/(?<!^)\b(?:[A-Z][\w'-]*|\d[\w:.]*)/g)?.join(' ') ?? '');
  return new Set([...named, ...words.slice(-1)]);
}

/**
 * The content words two statements share besides the new one's value: "I drink my coffee with
 * sugar" shares `coffee` with "I like my coffee black", only its value `sugar` with "I'm trying to
 * cut down on sugar".
 */
export function sharedFrameWords(statement: string, stored: string): string[] {
  const values = valueWords(statement);
  const theirs = contentWords(stored);
  return [...contentWords(statement)].filter((word) => !values.has(word) && theirs.has(word) && !/^(?:now|nowaday|day|currently|again|instead|actually)$/.test(word));
}

/** Whether a stored statement gives the value a retraction names: "I don't live in Lisbon anymore" names `lisbon`. */
export function namesValueOf(retraction: string, stored: string): boolean {
  const theirs = contentWords(stored);
  return [...valueWords(retraction)].some((word) => theirs.has(word));
}

/** The closest neighbour of the same holder, not written by this message, that passes `accept`. */
function closest(fact: ExtractedFact, neighbours: readonly Neighbour[], floor: number, accept: (n: Neighbour) => boolean = () => true): Neighbour | undefined {
  const holder = holderOf(fact.text);
  return neighbours.find((n) => n.score >= floor && holderOf(n.record.text) === holder && accept(n));
}

/** How much closer than `updateSimilarity` a change must be to a stored fact it shares no word with (values aside). */
const UNSHARED_MARGIN = 0.2;

/** The least similarity at which a stored fact only near the new one's (sure) attribute is taken for the same attribute. */
const NEAR_STORED_FLOOR = 0.2;

/**
 * What storing `fact` does, given the stored facts of its subject closest to it (best first) and
 * `habit`, the one stored habit held at the time of day the fact names (`routine-links.ts`), if any.
 */
export function decideWrite(fact: ExtractedFact, matches: readonly VectorMatch[], settings: CorrectionSettings, written: ReadonlySet<string>, habit?: StoredMemory): WriteDecision {
  const neighbours: Neighbour[] = [];
  for (const match of matches) {
    const record = recordOf(match.id, match.payload);
    if (record && !written.has(record.id)) neighbours.push({ record, score: match.score, attribute: attributeOf(match.payload) });
  }
  neighbours.sort((a, b) => b.score - a.score);
  if (fact.change === 'forget' || fact.change === 'retract') {
    // A value named to forget ("what I said about Waitrose") is the closest stored fact naming it, whoever's, however far.
    const gone = fact.topic ? neighbours.find((n) => namesValueOf(fact.text, n.record.text)) : closest(fact, neighbours, settings.retractSimilarity, (n) => namesValueOf(fact.text, n.record.text));
    if (settings.corrections && gone) return { kind: 'remove', old: gone.record, store: fact.change === 'retract' };
    return fact.change === 'forget' ? { kind: 'skip' } : { kind: 'add' };
  }
  const duplicate = neighbours.find((n) => n.score >= settings.mergeSimilarity);
  if (duplicate) return { kind: 'merge', into: duplicate.record };
  if (!settings.corrections) return { kind: 'add' };
  const sameSlot = fact.slot === undefined ? undefined : neighbours.find((n) => n.record.slot === fact.slot);
  if (sameSlot) return { kind: 'supersede', old: sameSlot.record };
  // Near (not sure of) the attribute whose slot a stored fact of the same holder fills, and no pattern named another: when a change is announced, or the two are close.
  const named = fact.slot !== undefined && !fact.slot.startsWith('my:');
  const nearSlot =
    fact.attribute === undefined || fact.attribute === fact.slot || named
      ? undefined
      : closest(fact, neighbours, -1, (n) => n.record.slot === fact.attribute && (fact.change === 'update' || n.score >= settings.updateSimilarity));
  if (nearSlot) return { kind: 'supersede', old: nearSlot.record };
  // Sure of an attribute a stored fact without a slot is only near ("I support Boca Juniors"), when a change is announced and the two are not far apart.
  const nearStored =
    fact.slot === undefined || fact.change !== 'update'
      ? undefined
      : closest(fact, neighbours, NEAR_STORED_FLOOR, (n) => (n.record.slot === null || n.record.slot.startsWith('my:')) && n.attribute === fact.slot);
  if (nearStored) return { kind: 'supersede', old: nearStored.record };
  // A change naming the time of day of the one habit held then is about that habit, whatever is closest (rule 9).
  if (habit) return { kind: 'supersede', old: habit };
  if (fact.change !== 'update') return { kind: 'add' };
  const changed =
    clearlyClosest(fact, neighbours) ??
    closest(fact, neighbours, settings.updateSimilarity, (n) => n.score >= settings.updateSimilarity + UNSHARED_MARGIN || sharedFrameWords(fact.text, n.record.text).length > 0);
  return changed ? { kind: 'supersede', old: changed.record } : { kind: 'add' };
}

/**
 * Words that say a present state replaced an earlier one ("now", "switched", "instead"), as opposed
 * to words that merely may ("new" in "I'm saving up for a new bike", "bought", "started"): only
 * these let a change supersede a fact it shares nothing with.
 */
export const STATE_CHANGE = /\b(?:now|nowadays|these days|instead|anymore|switched|swapped|replaced|changed|moved|relocated|took up|retrained|ported|transferred|upgraded|signed up)\b/i;

/** A change is taken for the closest stored fact of its holder when that one is at least this close... */
const CLEAR_FLOOR = 0.3;
/** ...and this much closer than the next fact of the same holder: nothing else it could be changing. */
const CLEAR_MARGIN = 0.08;

/**
 * The stored fact of the same holder a change is clearly about, though the two share no word and
 * sit far apart ("I switched to Brave" after "I browse the web with Chrome": 0.35, the next fact
 * 0.27): a correction names a new value of an attribute already stated, so the fact that states
 * it is the one nearest, well ahead of the rest.
 */
function clearlyClosest(fact: ExtractedFact, neighbours: readonly Neighbour[]): Neighbour | undefined {
  if (!STATE_CHANGE.test(fact.text)) return undefined;
  const holder = holderOf(fact.text);
  const same = neighbours.filter((n) => holderOf(n.record.text) === holder);
  const [first, second] = same;
  if (!first || first.score < CLEAR_FLOOR) return undefined;
  return second === undefined || first.score - second.score >= CLEAR_MARGIN ? first : undefined;
}


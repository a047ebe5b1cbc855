import type { VectorMatch } from '@svc/semantic';
import { holderOf } from './corrections.js';
import type { ExtractedFact } from './extract-facts.js';
import { slotsKeepApart } from './fact-slots.js';
import type { StoredMemory } from './memory-points.js';
import { contentWords } from './recall-cues.js';
import { notAState, sameHolderStates } from './subject-links.js';
import type { ValueKinds } from './value-kinds.js';
import { plainOpening } from './value-lexicon.js';
import { NO_VALUE, valuePhrase } from './value-types.js';

/**
 * The last resort of any new statement that no other rule linked, with or without a change word:
 * the stored fact of the same holder about the same thing (they share a word besides their values
 * and verbs: "hair" in "I have red hair" and "I dyed my hair blonde") whose value is of the same
 * kind as the new one (two colours; `value-kinds.ts`). One thing holds one value of a kind at a
 * time, so the newer replaces the older. "I like tea" and "I like coffee" share only their verb:
 * both stay. Chosen on the tuning attributes (docs/memory.md, tenth pass).
 */
export interface TypedLinkSettings {
  /** Stored facts of the same holder looked at, nearest first, at least `floor` close to the new statement. */
  candidates: number;
  floor: number;
}

export const TYPED_LINKS: TypedLinkSettings = { candidates: 8, floor: 0.35 };

/** The verb after the holder ("I have", "we spend", "my son plays"): shared verbs say nothing of the thing. */
const VERB = /^(?:\W*(?:i|we|i'm|i've|i'd|we're|we've|my [a-z]+(?:'s)?)\s+)(?:(?:always|usually|also|just|really|still|often|now|recently|never|currently)\s+)*([a-z']+)/i;
/** Words that date a statement or name how a value is given ("called"): they say nothing of the thing. */
const NOT_THING = /^(?:now|nowaday|day|currently|again|instead|actually|new|old|every|always|nam|call|name)$/;

/** A statement's content words, as written, each with its stem; without its verb, its holder's relation and dating words. */
function wordsOf(text: string): { word: string; stem: string }[] {
  const drop = new Set([...contentWords(VERB.exec(text)?.[1] ?? ''), ...contentWords(holderOf(text))]);
  const out: { word: string; stem: string }[] = [];
  // An opening capital is no name ("Orange is my favourite colour" gives `orange`, a colour).
  for (const [word] of plainOpening(text).matchAll(/[A-Za-z][A-Za-z'-]*|\d[\d.,]*/g)) {
    const [stem] = /^\d/.test(word) ? [word] : [...contentWords(word)];
    if (stem !== undefined && !drop.has(stem) && !NOT_THING.test(stem)) out.push({ word, stem });
  }
  return out;
}

/** Most words a value read off a pair may have ("a hot bath" is two). */
const VALUE_WORDS = 3;

/** A statement's value beside another: its name or number the other lacks, else its few words the other lacks. */
function ownValue(statement: string, words: readonly { word: string; stem: string }[], against: ReadonlySet<string>): string | undefined {
  const named = valuePhrase(statement);
  if (named !== undefined && /[A-Z0-9]/.test(named) && ![...contentWords(named)].some((w) => against.has(w))) return named;
  const own = words.filter((w) => !against.has(w.stem)).map((w) => w.word);
  return own.length > 0 && own.length <= VALUE_WORDS ? own.join(' ') : undefined;
}

/**
 * What two statements about the same thing give as their values: a statement's named value
 * (`valuePhrase`: a name or a number) when the other does not share it, else its words the other
 * lacks ("blonde" in "I dyed my hair blonde" beside "I have red hair", which gives "red"). None
 * when they share no word about the thing, or a value is missing or longer than a few words.
 */
export function pairValues(text: string, other: string): [string, string] | undefined {
  const [mine, theirs] = [wordsOf(text), wordsOf(other)];
  const [mineStems, theirStems] = [new Set(mine.map((w) => w.stem)), new Set(theirs.map((w) => w.stem))];
  if (!mine.some((w) => theirStems.has(w.stem))) return undefined;
  const [a, b] = [ownValue(text, mine, theirStems), ownValue(other, theirs, mineStems)];
  return a !== undefined && b !== undefined && !sameValue(a, b) ? [a, b] : undefined;
}

const sameValue = (a: string, b: string) => a.toLowerCase().includes(b.toLowerCase()) || b.toLowerCase().includes(a.toLowerCase());

/** The stored facts of the same holder near the new one about the same thing, each with the pair's two values. */
function aboutTheSameThing(fact: ExtractedFact, matches: readonly VectorMatch[], options: { written: ReadonlySet<string>; settings: TypedLinkSettings }): { record: StoredMemory; values: [string, string] }[] {
  const holder = holderOf(fact.text);
  const out: { record: StoredMemory; values: [string, string] }[] = [];
  const nearest = [...matches].sort((a, b) => b.score - a.score).slice(0, options.settings.candidates);
  for (const { match, record } of sameHolderStates(nearest, holder, options.written)) {
    if (match.score < options.settings.floor || slotsKeepApart(fact.slot, record.slot)) continue;
    const values = pairValues(fact.text, record.text);
    if (values) out.push({ record, values });
  }
  return out;
}

/** The stored fact a new statement replaces by giving another value of the same kind about the same thing, when exactly one does. */
export async function sameKindOfValue(kinds: ValueKinds, fact: ExtractedFact, matches: readonly VectorMatch[], options: { written: ReadonlySet<string>; settings?: TypedLinkSettings }): Promise<StoredMemory | undefined> {
  if (fact.change === 'retract' || fact.change === 'forget' || notAState(fact.text) || NO_VALUE.test(fact.text)) return undefined;
  const near = aboutTheSameThing(fact, matches, { written: options.written, settings: options.settings ?? TYPED_LINKS });
  if (near.length === 0) return undefined;
  const typed = await kinds.kindsOf(near.flatMap((c) => c.values));
  const same = near.filter((_, i) => typed[2 * i] !== undefined && typed[2 * i] === typed[2 * i + 1]);
  return same.length === 1 ? same[0]!.record : undefined;
}

import type { Embedder, VectorMatch } from '@svc/semantic';
import { holderOf, STATE_CHANGE } from './corrections.js';
import type { ExtractedFact } from './extract-facts.js';
import { recordOf, type StoredMemory } from './memory-points.js';
import { contentWords } from './recall-cues.js';
import { plainOpening } from './value-lexicon.js';

/**
 * The last resort of a correction that linked nothing: the stored fact that gives the same kind of
 * value in the same frame. A statement is read as a frame and a value ("I moved my account to" +
 * "HSBC", "I bank with" + "ING"); the shared encoder compares the frames without the values'
 * noise, and the values alone for their kind (two banks, two islands, two colours). The stored
 * fact of the same holder, among the few nearest the new one, whose frame and value together are
 * closest, well ahead of the next, is the one the change replaces. Thresholds chosen on the dev
 * and tuning attributes of `memory:updates` (docs/memory.md).
 */
export interface ValueTypeSettings {
  /** Stored facts of the same holder looked at, nearest first, at least `floor` close to the new statement. */
  candidates: number;
  floor: number;
  /** Frame cosine plus value cosine must reach this, and beat the next candidate's by `margin`. */
  score: number;
  margin: number;
}

export const VALUE_TYPES: ValueTypeSettings = { candidates: 6, floor: 0.1, score: 0.7, margin: 0.1 };

/**
 * Statements of an event or a plan ("I moved here from Cairo last year", "I'm planning a trip to
 * Peru next month"), not of a present state: they neither replace a fact nor are replaced this way
 * (a trip planned is not the summer place it resembles).
 */
export const EVENT = /\b(?:(?:next|last|this) (?:week|weekend|month|year|summer|winter|spring|autumn)|ago|planning|going to|will|here from)\b/i;
/** A negated change ("I have no car now") or one without its value ("I've changed my mind", "I switched jobs"). */
export const NO_VALUE = /\b(?:no|not|never)\b|n't\b|\b(?:mind|jobs|careers|plans)\W*$/i;

/** Words that open a sentence in capitals without naming anything. */
const NOT_NAMES = /^(?:I|I'm|I've|I'd|My|These|This|That|Now|Nowadays|Actually|Recently|Currently|Since|As|Last|Every|Home|Forget|A|An|The)$/;
const DATING = /\b(?:now|nowadays|these days|currently|again|instead|actually|anymore|any more|last (?:week|month|year)|in the (?:spring|summer|autumn|fall|winter))\b/gi;

/**
 * The words of a statement that carry its value, as written: its runs of capitalised words (names:
 * "Umbrella Health", "Tesla Model 3") and numbers with the unit after them ("44 shoes"), else its
 * last content word ("vegan" in "I've gone vegan"). A sentence's capitalised opening word is a name
 * only when known only as one (`plainOpening`): "Apple pie is what I bake" names nothing.
 */
export function valuePhrase(statement: string): string | undefined {
  const bare = plainOpening(statement.replace(DATING, ' ').replace(/[.!]+$/, ''));
  const names = [...bare.matchAll(/\b[A-Z][\w'-]*(?:\s+(?:[A-Z][\w'-]*|\d+))*/g)]
    .map((m) => m[0].split(/\s+/).filter((w, i) => i > 0 || !NOT_NAMES.test(w)).join(' '))
    .filter((n) => /[A-Za-z]/.test(n));
  const numbers = [...bare.matchAll(/\b\d[\d.,:]*(?:\s*(?:%|[a-z]+))?/gi)].map((m) => m[0]).filter((n) => !names.some((name) => name.includes(n.split(/\s/)[0]!)));
  const found = [...names, ...numbers];
  if (found.length > 0) return found.join(' ');
  const words = bare.toLowerCase().match(/[a-z][a-z'-]*/g) ?? [];
  const content = contentWords(bare);
  return [...words].reverse().find((w) => content.size > 0 && contentWords(w).size > 0);
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, v, i) => sum + v * b[i]!, 0);

/** The stored fact a change replaces by the kind of its value, when one is clearly of the new value's kind. */
export async function sameValueType(embedder: Embedder, fact: ExtractedFact, matches: readonly VectorMatch[], options: { written: ReadonlySet<string>; settings?: ValueTypeSettings }): Promise<StoredMemory | undefined> {
  const settings = options.settings ?? VALUE_TYPES;
  if (fact.change !== 'update' || !STATE_CHANGE.test(fact.text) || EVENT.test(fact.text) || NO_VALUE.test(fact.text)) return undefined;
  const value = valuePhrase(fact.text);
  if (value === undefined) return undefined;
  const holder = holderOf(fact.text);
  const near: { record: StoredMemory; value: string }[] = [];
  for (const match of [...matches].sort((a, b) => b.score - a.score)) {
    const record = recordOf(match.id, match.payload);
    if (!record || options.written.has(record.id) || match.score < settings.floor || holderOf(record.text) !== holder || EVENT.test(record.text)) continue;
    if (fact.slot !== undefined && record.slot !== null && record.slot !== fact.slot) continue;
    const theirs = valuePhrase(record.text);
    if (theirs !== undefined && theirs.toLowerCase() !== value.toLowerCase()) near.push({ record, value: theirs });
    if (near.length >= settings.candidates) break;
  }
  if (near.length === 0) return undefined;
  const n = near.length + 1;
  const vectors = await embedder.embed([value, ...near.map((c) => c.value), frameOf(fact.text, value), ...near.map((c) => frameOf(c.record.text, c.value))]);
  const ranked = near.map((c, i) => ({ record: c.record, score: dot(vectors[0]!, vectors[i + 1]!) + dot(vectors[n]!, vectors[n + i + 1]!) })).sort((a, b) => b.score - a.score);
  const [first, second] = ranked;
  if (!first || first.score < settings.score) return undefined;
  return second === undefined || first.score - second.score >= settings.margin ? first.record : undefined;
}

/** A statement without its value: what it says the value is of. */
const frameOf = (statement: string, value: string) => statement.replace(value, ' ').replace(/\s+/g, ' ').trim();

import type { Embedder, VectorMatch } from '@svc/semantic';
import { holderOf } from './corrections.js';
import type { ExtractedFact } from './extract-facts.js';
import { lastingSlot } from './fact-slots.js';
import { attributeOf, recordOf, type StoredMemory } from './memory-points.js';
import { EVENT, NO_VALUE, valuePhrase } from './value-types.js';

/**
 * The last resort of a change that no other rule linked: the stored fact about the same subject.
 * A correction restates what a fact was about with another value ("I moved my account to Monzo"
 * after "I keep my savings at ING"; "I got a new laptop, a ThinkPad" after "I work on a Dell XPS").
 * Its statement cosine to that fact is often low (the values differ, the words differ), but the
 * statement and its frame (the statement without its value) together put that fact clearly ahead
 * of every other fact of the same holder: the subject is shared, the rest of the user's facts are
 * about other things. Chosen on the tuning attributes and the dev attributes of
 * `memory:updates` (docs/memory.md, sixth pass).
 */
export interface SubjectLinkSettings {
  /** Stored facts of the same holder looked at, nearest first. */
  candidates: number;
  /** Statement cosine plus frame cosine must reach this... */
  score: number;
  /** ...and beat the next candidate's by this much. */
  margin: number;
}

export const SUBJECT_LINKS: SubjectLinkSettings = { candidates: 8, score: 0.5, margin: 0.12 };

/** A plan rather than a present state ("I'm saving up for a new bike"), or a dated event ("I bought a sailboat in April"). */
const PLAN_OR_DATED = /\b(?:saving up|saving for|hoping to|want to|would like to|in (?:january|february|march|april|may|june|july|august|september|october|november|december))\b/i;


/** An event or a plan, not a present state: it neither replaces a fact nor is replaced by its subject or its kind of value. */
export const notAState = (text: string) => EVENT.test(text) || PLAN_OR_DATED.test(text);

/**
 * The stored facts among `matches`, in their order, that a new statement of `holder` may be about:
 * of that holder, stating a present state, and not written by the same message. Every correction
 * rule starts from these.
 */
export function sameHolderStates(matches: readonly VectorMatch[], holder: string, written: ReadonlySet<string>): { match: VectorMatch; record: StoredMemory }[] {
  return matches.flatMap((match) => {
    const record = recordOf(match.id, match.payload);
    return record && !written.has(record.id) && holderOf(record.text) === holder && !notAState(record.text) ? [{ match, record }] : [];
  });
}

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
};

/** A statement without its value: what it says the value is of. */
export function subjectFrame(statement: string): string {
  const value = valuePhrase(statement);
  return (value ? statement.replace(value, ' ') : statement).replace(/\s+/g, ' ').trim();
}

interface Candidate {
  record: StoredMemory;
  score: number;
  /** Whether the change may replace it (else it only competes). */
  linkable: boolean;
}

/** The stored facts of the same holder, nearest first, that a change could be about (none of another named slot, no events). */
function candidatesFor(fact: ExtractedFact, matches: readonly VectorMatch[], written: ReadonlySet<string>, settings: SubjectLinkSettings): Candidate[] {
  const holder = holderOf(fact.text);
  const out: Candidate[] = [];
  for (const { match, record } of sameHolderStates([...matches].sort((a, b) => b.score - a.score), holder, written)) {
    if (fact.slot !== undefined && record.slot !== null && record.slot !== fact.slot) continue;
    // Kept in the ranking (they are what the winner must be clear of), never linked: what does not change (a name, a
    // birthday, where one comes from), and what the encoder places near an attribute the change is not near.
    const attribute = attributeOf(match.payload);
    const linkable = !lastingSlot(record.slot) && (attribute === undefined || attribute === fact.attribute);
    out.push({ record, score: match.score, linkable });
    if (out.length >= settings.candidates) break;
  }
  return out;
}

/** The stored fact a change is about by its subject, when one is clearly ahead of the holder's other facts. */
export async function sameSubject(embedder: Embedder, fact: ExtractedFact, matches: readonly VectorMatch[], options: { written: ReadonlySet<string>; settings?: SubjectLinkSettings }): Promise<StoredMemory | undefined> {
  const settings = options.settings ?? SUBJECT_LINKS;
  if (fact.change !== 'update' || notAState(fact.text) || NO_VALUE.test(fact.text)) return undefined;
  const near = candidatesFor(fact, matches, options.written, settings);
  if (near.length === 0) return undefined;
  const [mine, ...theirs] = await embedder.embed([subjectFrame(fact.text), ...near.map((c) => subjectFrame(c.record.text))]);
  const ranked = near.map((c, i) => ({ ...c, score: c.score + dot(mine!, theirs[i]!) })).sort((a, b) => b.score - a.score);
  const [first, second] = ranked;
  if (!first?.linkable || first.score < settings.score) return undefined;
  return second === undefined || first.score - second.score >= settings.margin ? first.record : undefined;
}

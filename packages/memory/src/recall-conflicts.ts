import { holderOf, sharedFrameWords, STATE_CHANGE } from './corrections.js';
import { contentWords, type RecallCues } from './recall-cues.js';
import { EVENT, NO_VALUE } from './value-types.js';

/** A recalled fact as this rule reads it. */
interface Candidate {
  text: string;
  slot: string | null;
  updatedAt: Date;
}

/** A candidate fact of a recall, with its similarity to the request and its relevance (similarity plus cues). */
interface Scored extends Candidate {
  similarity?: number | undefined;
  relevance: number;
  /** The attribute the encoder placed the fact near (`attributeOf`), if any. */
  attribute?: string | undefined;
}

/**
 * Whether `newer` says a present state replaced what `older` states, judged from the request both
 * answer: a change of the same holder, later, not of another named slot, that shares with the
 * older fact a word besides its value or a word the request ties to its user.
 */
function replaces(newer: Candidate, older: Candidate, cues: RecallCues): boolean {
  if (newer.updatedAt.getTime() <= older.updatedAt.getTime() || !STATE_CHANGE.test(newer.text)) return false;
  if (newer.slot !== null && older.slot !== null && newer.slot !== older.slot) return false;
  if (holderOf(newer.text) !== holderOf(older.text)) return false;
  if (sharedFrameWords(newer.text, older.text).length > 0) return true;
  const theirs = contentWords(older.text);
  return [...contentWords(newer.text)].some((word) => cues.own.has(word) && theirs.has(word));
}

/**
 * The recalled facts without those a newer recalled fact replaces: a correction the write side
 * could not link to the fact it changes (they share too little) still must not let the old value
 * be given beside the new one when a request finds both.
 */
export function withoutReplaced<T extends Candidate>(recalled: readonly T[], cues: RecallCues | undefined): T[] {
  if (!cues || recalled.length < 2) return [...recalled];
  return recalled.filter((older) => !recalled.some((newer) => newer !== older && replaces(newer, older, cues)));
}

/** How close to the request, and to the older fact's similarity, a newer change under the floor must be to stand in for it. */
export interface ChangeStandIn {
  floor: number;
  gap: number;
}

/** Chosen on the tuning forms of both attribute files (`memory:updates --tuning-only`; docs/memory.md, fifth pass). */
export const CHANGE_STAND_IN: ChangeStandIn = { floor: 0.25, gap: 0.25 };

/** A candidate that says a present state replaced another, with its holder: what may stand in for an older fact. */
interface Change<T> {
  fact: T;
  holder: string;
}

/** Whether `change` is a later change of the same holder, not of another named slot, than `older`. */
function follows<T extends Scored>(change: Change<T>, older: T, holder: string): boolean {
  if (change.fact.updatedAt.getTime() <= older.updatedAt.getTime() || change.holder !== holder) return false;
  // The encoder places the two near different attributes: the change is about something else.
  if (change.fact.attribute !== undefined && older.attribute !== undefined && change.fact.attribute !== older.attribute) return false;
  return change.fact.slot === null || older.slot === null || change.fact.slot === older.slot;
}

/**
 * The recalled facts with each replaced by the newer change the request also found just under the
 * floor: the question asks for the attribute both state, and the change is the current value.
 */
export function withChangesStandingIn<T extends Scored>(recalled: readonly T[], candidates: readonly T[], settings: ChangeStandIn = CHANGE_STAND_IN): T[] {
  // Best first, so the first that follows an older fact is the nearest one.
  const changes: Change<T>[] = candidates
    .filter((c) => (c.similarity ?? -1) >= settings.floor && STATE_CHANGE.test(c.text) && !NO_VALUE.test(c.text) && !EVENT.test(c.text))
    .sort((a, b) => (b.similarity ?? 0) - (a.similarity ?? 0))
    .map((fact) => ({ fact, holder: holderOf(fact.text) }));
  if (changes.length === 0) return [...recalled];
  const out: T[] = [];
  for (const older of recalled) {
    const sim = older.similarity ?? older.relevance;
    const holder = holderOf(older.text);
    const newer = changes.find((c) => c.fact !== older && sim - (c.fact.similarity ?? -1) <= settings.gap && follows(c, older, holder))?.fact;
    const kept = newer ? { ...newer, relevance: Math.max(newer.relevance, older.relevance) } : older;
    if (!out.some((c) => c.text === kept.text && c.updatedAt.getTime() === kept.updatedAt.getTime())) out.push(kept);
  }
  return out;
}

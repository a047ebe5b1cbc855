import { holderOf, sharedFrameWords, STATE_CHANGE } from './corrections.js';
import { contentWords, type RecallCues } from './recall-cues.js';

/** A recalled fact as this rule reads it. */
interface Candidate {
  text: string;
  slot: string | null;
  updatedAt: Date;
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

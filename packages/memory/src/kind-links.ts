import type { VectorMatch } from '@svc/semantic';
import { holderOf, STATE_CHANGE } from './corrections.js';
import type { ExtractedFact } from './extract-facts.js';
import { slotsKeepApart } from './fact-slots.js';
import type { StoredMemory } from './memory-points.js';
import { notAState, sameHolderStates } from './subject-links.js';
import { namedValues } from './value-lexicon.js';
import type { ValueKinds } from './value-kinds.js';
import { NO_VALUE, valuePhrase } from './value-types.js';

/**
 * The last resort of a change that no other rule linked (issue #35, twelfth pass): a change names
 * a new value of something the user stated, so when it names a value of one kind the gazetteer
 * knows (a bank, a carrier, a streaming service, a place, a sport...) and **exactly one** stored
 * fact of the same holder names another value of that kind, that fact is the one it replaces,
 * whatever the wording ("I moved my account to Revolut" after "I bank with ING": no shared word,
 * cosine 0.25). Two stored facts of the kind (a bank and a savings bank, two sports) link
 * nothing: the rule does not guess between them.
 */


/** The one kind of value the gazetteer reads in a statement, with its values; undefined when it reads none or several kinds. */
function kindOf(text: string): { kind: string; values: Set<string> } | undefined {
  const named = namedValues(text);
  const kinds = new Set(named.map((v) => v.kind));
  if (kinds.size !== 1) return undefined;
  return { kind: named[0]!.kind, values: new Set(named.map((v) => v.value.toLowerCase())) };
}

/** Whether a statement is a change the lexical last resorts may link: announced or saying a present state replaced another, with its value; no retraction. */
export const linkableChange = (fact: ExtractedFact) =>
  fact.change !== 'retract' && fact.change !== 'forget' && (fact.change === 'update' || STATE_CHANGE.test(fact.text)) && !notAState(fact.text) && !NO_VALUE.test(fact.text);

/** The stored fact of the same holder that alone names another value of the kind the change names, if exactly one does. */
export function onlyOneOfItsKind(fact: ExtractedFact, matches: readonly VectorMatch[], options: { written: ReadonlySet<string> }): StoredMemory | undefined {
  if (!linkableChange(fact)) return undefined;
  const mine = kindOf(fact.text);
  if (mine === undefined) return undefined;
  const holder = holderOf(fact.text);
  const same: StoredMemory[] = [];
  for (const { record } of sameHolderStates(matches, holder, options.written)) {
    const theirs = namedValues(record.text).filter((v) => v.kind === mine.kind);
    if (theirs.length === 0) continue;
    // A fact that names the same value is not another value of the kind (a restatement, or a fact beside it).
    if (theirs.some((v) => mine.values.has(v.value.toLowerCase()))) return undefined;
    if (slotsKeepApart(fact.slot, record.slot)) return undefined;
    same.push(record);
  }
  return same.length === 1 ? same[0] : undefined;
}

/** Which of `others` give a value of the kind `value` is (rule 8's typed half): by a typer's kinds, or in evaluations by word-vector closeness. */
export type ValueMatcher = (value: string, others: readonly string[]) => Promise<boolean[]>;

/** A matcher over a typer: the others typed as the value's kind (none when the value is untyped). */
export const sameKindMatcher =
  (kinds: ValueKinds): ValueMatcher =>
  async (value, others) => {
    const [kind, ...theirs] = await kinds.kindsOf([value, ...others]);
    return theirs.map((k) => kind !== undefined && k === kind);
  };

/**
 * Rule 8 with a matcher (issue #35, twentieth pass; off unless a store is given `changeValues`):
 * where the gazetteer reads no value in a change, the one stored fact of the same holder whose
 * value phrase (`valuePhrase`) the matcher puts with the change's is the one it replaces; none
 * when two are, or one names the same value.
 */
export async function onlyOneOfItsTypedKind(matcher: ValueMatcher, fact: ExtractedFact, matches: readonly VectorMatch[], options: { written: ReadonlySet<string> }): Promise<StoredMemory | undefined> {
  const mine = linkableChange(fact) ? valuePhrase(fact.text) : undefined;
  if (mine === undefined) return undefined;
  const holder = holderOf(fact.text);
  const near = sameHolderStates(matches, holder, options.written).flatMap(({ record }) => {
    if (slotsKeepApart(fact.slot, record.slot)) return [];
    const value = valuePhrase(record.text);
    return value === undefined ? [] : [{ record, value }];
  });
  if (near.length === 0) return undefined;
  const matched = await matcher(mine, near.map((n) => n.value));
  const same = near.filter((_, i) => matched[i]);
  if (same.some((n) => n.value.toLowerCase() === mine.toLowerCase())) return undefined;
  return same.length === 1 ? same[0]!.record : undefined;
}

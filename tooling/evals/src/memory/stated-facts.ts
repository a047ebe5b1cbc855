import { extractFacts } from '@svc/memory';
import type { Message, UpdateUser, UserAttribute } from './updates-data.js';

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Whether a fact states `value` (a retraction that names it, "I no longer live in Lisbon", does not). */
export function asserts(fact: string, value: string): boolean {
  // "Thursdays" states "Thursday"; only the part of the fact that names the value is read for a negation
  // ("I dropped my old course and started Italian" states Italian).
  const names = new RegExp(`(?:^|\\b)${escapeRegExp(value)}(?:s?\\b|$)`, 'i');
  const part = fact.split(/,\s*|\s+and\s+/).find((p) => names.test(p));
  if (part === undefined) return false;
  return !/\b(?:no longer|not|isn't|aren't|don't|doesn't|anymore|stopped|dropped|sold|forget)\b|n't\b/i.test(part);
}

/**
 * The facts one statement of the user was stored as: those of the message that carried the
 * clause `{attribute, value}` and that state `value`. A stale answer is one of the old
 * statement's facts injected, not any fact that happens to name the old value ("My band plays at
 * the Blue Note" is no answer about hair colour blue): counted per fact, not per word.
 */
export function statedAs(messages: readonly Message[], attribute: string, value: string): ReadonlySet<string> {
  const facts = new Set<string>();
  for (const message of messages) {
    if (!message.clauses.some((c) => c.attribute === attribute && c.value === value)) continue;
    for (const fact of extractFacts(message.text)) if (asserts(fact.text, value)) facts.add(fact.text);
  }
  return facts;
}

/** The facts of a user's first statement of an attribute, and of the statement that updated it (empty unless updated). */
export function attributeFacts(user: UpdateUser, held: UserAttribute): { old: ReadonlySet<string>; fresh: ReadonlySet<string> } {
  const name = held.attribute.attribute;
  return { old: statedAs(user.session1, name, held.first), fresh: held.fate === 'update' ? statedAs(user.session2, name, held.second) : new Set() };
}

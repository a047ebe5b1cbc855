import { readFileSync } from 'node:fs';
import { seededRandom } from '@svc/core';
import type { FactItem } from './dataset.js';

/** An attribute a user states and later corrects or retracts (`data/memory/updates.jsonl`). */
export interface UpdateAttribute {
  attribute: string;
  /** `dev` attributes may be tuned on; `test` attributes never are. */
  split: 'dev' | 'test';
  holder: string;
  values: string[];
  /** Statement forms with `{v}` for the value. */
  states: string[];
  /** Forms of a later statement that gives a new value. */
  updates: string[];
  /** Forms that take the value back. */
  retractions: string[];
}

/** Question forms of one attribute (`data/memory/update-questions.jsonl`), written apart from the statements. */
export interface AttributeQuestions {
  attribute: string;
  /** Forms tuning may look at. */
  tune: string[];
  /** Held-back forms: never looked at while tuning. */
  test: string[];
}

/** What one attribute of one user goes through. */
export type Fate = 'update' | 'retract' | 'keep';

/** One attribute of one simulated user: stated with `first`, then updated to `second`, retracted or kept. */
export interface UserAttribute {
  attribute: UpdateAttribute;
  first: string;
  second: string;
  fate: Fate;
}

/** A simulated end user: background facts, then two sessions of messages about their attributes. */
export interface UpdateUser {
  background: string[];
  attributes: UserAttribute[];
  /** Messages stating the first values (compound, with glued instructions or small talk). */
  session1: Message[];
  /** Messages correcting or retracting them. */
  session2: Message[];
}

/** A message and the statements it carries (one clause each). */
export interface Message {
  text: string;
  clauses: { attribute: string; value: string }[];
}

const here = new URL('../../data/memory/', import.meta.url);
const jsonLines = <T>(name: string): T[] =>
  readFileSync(new URL(name, here), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

export const loadUpdateAttributes = (file = 'updates.jsonl'): UpdateAttribute[] => jsonLines<UpdateAttribute>(file);
export const loadAttributeQuestions = (file = 'update-questions.jsonl'): Map<string, AttributeQuestions> => new Map(jsonLines<AttributeQuestions>(file).map((q) => [q.attribute, q]));

/** Templates of `facts.jsonl` that state one of the update attributes: left out of the background so a user holds one value of each. */
const OVERLAPPING_TEMPLATES = new Set([0, 2, 3, 4, 6, 7, 10, 11, 13, 17, 18, 21, 23, 24, 26, 27, 28]);

const OPENERS = ['', 'For future reference: ', 'Hi! ', 'Just so you know, ', 'Quick note: '];
const CORRECTION_OPENERS = ['', 'A correction: ', 'Update: ', 'Oh, and ', 'Some news: '];
const TAILS = ['', ' say exactly: noted', ' Thanks!', ' What do you think?', ' Can you recommend a podcast?', ' lol'];

/** A deterministic pseudo-random sequence (mulberry32), so every run builds the same users. */
const random = seededRandom;

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
const fill = (form: string, value: string) => form.replaceAll('{v}', value);
const lowerFirst = (text: string) => (/^I\b/.test(text) ? text : text.charAt(0).toLowerCase() + text.slice(1));

/** Statements joined as a person writes them: "A, B and C." or "A. B." */
function compound(next: () => number, statements: readonly string[]): string {
  const bare = statements.map((s) => s.replace(/[.!]$/, ''));
  if (bare.length === 1) return `${bare[0]}.`;
  if (next() < 0.3) return `${statements.join(' ')}`;
  const rest = bare.slice(1).map(lowerFirst);
  const last = rest.pop()!;
  return `${[bare[0], ...rest].join(', ')}${next() < 0.5 ? ',' : ''} and ${last}.`;
}

/** Groups a user's statements into messages of one to three, each with an opener and maybe a glued instruction. */
function messagesOf(next: () => number, items: { attribute: string; value: string; text: string }[], openers: readonly string[]): Message[] {
  const messages: Message[] = [];
  for (let i = 0; i < items.length; ) {
    const size = Math.min(items.length - i, 1 + Math.floor(next() * 3));
    const group = items.slice(i, i + size);
    i += size;
    const body = compound(
      next,
      group.map((g) => g.text),
    );
    const opener = pick(next, openers);
    const text = `${opener}${opener && !opener.endsWith(': ') && !opener.endsWith('! ') ? lowerFirst(body) : body}${pick(next, TAILS)}`;
    messages.push({ text, clauses: group.map(({ attribute, value }) => ({ attribute, value })) });
  }
  return messages;
}

/**
 * `count` users, each holding `perUser` of the attributes (rotating, so every attribute is held by
 * several users with different values) and the background facts of `facts.jsonl` that state none
 * of them. Fates rotate too: most attributes are updated, some retracted, some kept.
 */
export function updateUsers(facts: readonly FactItem[], attributes: readonly UpdateAttribute[], options: { count: number; perUser: number; seed?: number }): UpdateUser[] {
  const next = random(options.seed ?? 35);
  const background = facts.filter((f) => !OVERLAPPING_TEMPLATES.has(f.template));
  const byTemplate = new Map<number, FactItem[]>();
  for (const item of background) byTemplate.set(item.template, [...(byTemplate.get(item.template) ?? []), item]);
  const fates: Fate[] = ['update', 'update', 'update', 'retract', 'keep', 'update'];
  return Array.from({ length: options.count }, (_, u) => {
    const held = Array.from({ length: options.perUser }, (_, i) => attributes[(u * options.perUser + i) % attributes.length]!);
    const userAttributes = held.map((attribute, i): UserAttribute => {
      const n = attribute.values.length;
      const first = attribute.values[(u + i) % n]!;
      const second = attribute.values[(u + i + 1 + (u % (n - 1))) % n]!;
      const fate = fates[(u + i) % fates.length]!;
      return { attribute, first, second: second === first ? attribute.values[(u + i + 1) % n]! : second, fate };
    });
    const stated = userAttributes.map((a) => ({ attribute: a.attribute.attribute, value: a.first, text: fill(pick(next, a.attribute.states), a.first) }));
    const changed = userAttributes
      .filter((a) => a.fate !== 'keep')
      .map((a) =>
        a.fate === 'update'
          ? { attribute: a.attribute.attribute, value: a.second, text: fill(pick(next, a.attribute.updates), a.second) }
          : { attribute: a.attribute.attribute, value: a.first, text: fill(pick(next, a.attribute.retractions), a.first) },
      );
    return {
      background: [...byTemplate.values()].map((items) => items[u % items.length]!.fact),
      attributes: userAttributes,
      session1: messagesOf(next, stated, OPENERS),
      session2: messagesOf(next, changed, CORRECTION_OPENERS),
    };
  });
}

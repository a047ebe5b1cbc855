import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A statement of `facts.jsonl` and the questions that should bring it back. */
export interface FactItem {
  template: number;
  fact: string;
  questions: string[];
}

const here = new URL('../../data/memory/', import.meta.url);

function jsonLines<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

export function loadFacts(): FactItem[] {
  return jsonLines<FactItem>(new URL('facts.jsonl', here).pathname);
}

/**
 * Unrelated prompts from the shared semantic-cache data (never the reserved half of QQP):
 * `dev` (QQP lines 0-999, question a) calibrates; `test` (QQP lines 1000-1999, question b, and
 * GPTCache's 999 origins) is held out.
 */
export function loadUnrelated(semcacheDir: string): { dev: string[]; test: string[] } {
  const qqp = jsonLines<{ a: string; b: string }>(join(semcacheDir, 'qqp-dev.jsonl'));
  const gptcache = JSON.parse(readFileSync(join(semcacheDir, 'gptcache-paraphrase-pairs.json'), 'utf8')) as { origin: string }[];
  return {
    dev: qqp.slice(0, 1000).map((pair) => pair.a),
    test: [...qqp.slice(1000, 2000).map((pair) => pair.b), ...gptcache.map((pair) => pair.origin)],
  };
}

/**
 * `users` end users of 50 facts each: user u states value u of each of the 40 templates and 10
 * of the 12 one-off episodes (rotating), so no user holds two values of one slot.
 */
export function usersOf(facts: readonly FactItem[], users: number): FactItem[][] {
  const byTemplate = new Map<number, FactItem[]>();
  for (const item of facts) byTemplate.set(item.template, [...(byTemplate.get(item.template) ?? []), item]);
  const valued = [...byTemplate.values()].filter((items) => items.length > 1);
  const episodes = [...byTemplate.values()].filter((items) => items.length === 1).map((items) => items[0]!);
  return Array.from({ length: users }, (_, u) => [
    ...valued.map((items) => items[u % items.length]!),
    ...Array.from({ length: 10 }, (_, i) => episodes[(u + i) % episodes.length]!),
  ]);
}

/**
 * A larger dev set of unrelated prompts that refer to their user (issue #35, sixteenth pass): the
 * questions of qqp-dev lines 2000 onward (both `a` and `b`; lines 0-1999 are the recall eval's dev
 * and held-out prompts), distinct, that `refersToUser` keeps, minus any text of the held-out list
 * (exact match), the first `count` in file order. For calibrating rules that act only on such
 * requests, where the 1,000 dev prompts hold too few to tell settings apart.
 */
export function loadSelfReferringDev(semcacheDir: string, count: number, refersToUser: (text: string) => boolean): string[] {
  const qqp = jsonLines<{ a: string; b: string }>(join(semcacheDir, 'qqp-dev.jsonl'));
  const { dev, test } = loadUnrelated(semcacheDir);
  const taken = new Set([...dev, ...test].map((t) => t.trim().toLowerCase()));
  const out: string[] = [];
  for (const pair of qqp.slice(2000)) {
    for (const text of [pair.a, pair.b]) {
      const key = text.trim().toLowerCase();
      if (out.length >= count || taken.has(key) || !refersToUser(text)) continue;
      taken.add(key);
      out.push(text);
    }
  }
  return out;
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fnv } from '@svc/semantic/training';
import { textGroups } from './split.js';

/** One PAWS pair (PAWS-Wiki's labelled format): `duplicate` is the human label (paraphrase or not). */
export interface PawsPair {
  a: string;
  b: string;
  duplicate: boolean;
}

/** Reads a PAWS file in the `{a, b, duplicate: 0|1}` JSONL form (default `paws-dev.jsonl` of the data folder). */
export function loadPaws(dir: string, file = 'paws-dev.jsonl'): PawsPair[] {
  const pairs: PawsPair[] = [];
  for (const line of readFileSync(file.includes('/') ? file : join(dir, file), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as { a?: unknown; b?: unknown; duplicate?: unknown };
    if (typeof row.a !== 'string' || typeof row.b !== 'string' || (row.duplicate !== 0 && row.duplicate !== 1)) {
      throw new Error(`${file} line ${pairs.length + 1}: expected {a, b, duplicate: 0|1}`);
    }
    pairs.push({ a: row.a, b: row.b, duplicate: row.duplicate === 1 });
  }
  return pairs;
}

/**
 * PAWS makes several pairs from one source sentence (its word swaps and back-translations), so
 * its pairs are grouped by source: pairs sharing a sentence, directly or through other pairs, form
 * one group (a connected component), in file order of first appearance.
 */
export function groupBySource(pairs: readonly PawsPair[]): PawsPair[][] {
  const sentences = textGroups();
  for (const { a, b } of pairs) sentences.join(a, b);
  const groups = new Map<string, PawsPair[]>();
  for (const pair of pairs) {
    const root = sentences.root(pair.a);
    const group = groups.get(root);
    if (group) group.push(pair);
    else groups.set(root, [pair]);
  }
  return [...groups.values()];
}

/** Splits PAWS by source sentence: each group goes wholly to `train` or `heldOut` by a hash of its smallest sentence. */
export function splitBySource(pairs: readonly PawsPair[]): { train: PawsPair[]; heldOut: PawsPair[] } {
  const train: PawsPair[] = [];
  const heldOut: PawsPair[] = [];
  for (const group of groupBySource(pairs)) {
    const smallest = group.flatMap((p) => [p.a, p.b]).sort()[0]!;
    (fnv(smallest, 0x5a17) % 2 === 0 ? train : heldOut).push(...group);
  }
  return { train, heldOut };
}

/**
 * The acceptance protocol's pairs: one pair per source sentence (the group's pair whose text hash
 * is smallest, so the pick depends on nothing but the pairs), in group order.
 */
export function onePerSource(pairs: readonly PawsPair[]): PawsPair[] {
  return groupBySource(pairs).map((group) => group.reduce((best, p) => (fnv(`${p.a}\n${p.b}`) < fnv(`${best.a}\n${best.b}`) ? p : best)));
}

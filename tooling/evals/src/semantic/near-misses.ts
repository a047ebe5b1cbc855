import { readFileSync } from 'node:fs';

/** One pair of `packages/semantic/data/near-misses.jsonl`: questions that look alike and must never share an answer. */
export interface NearMiss {
  kind: 'entity' | 'date' | 'number' | 'unit' | 'negation' | 'direction';
  a: string;
  b: string;
}

export function loadNearMisses(): NearMiss[] {
  return readFileSync(new URL('../../../../packages/semantic/data/near-misses.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as NearMiss);
}

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** One Quora question pair; `duplicate` is the human label. */
export interface QqpPair {
  a: string;
  b: string;
  duplicate: boolean;
}

/** One GPTCache mock pair: a stored question and a paraphrase that should find it. */
export interface ParaphrasePair {
  origin: string;
  similar: string;
}

const relative = join('shared', 'data', 'semcache');

/** `--data` when given; else the first `shared/data/semcache` found walking up from `from`. */
export function findDataDir(from: string, given?: string): string {
  if (given) return resolve(given);
  let dir = resolve(from);
  for (;;) {
    const candidate = join(dir, relative);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Cannot find ${relative} above ${from}; pass --data <dir>.`);
    dir = parent;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads `qqp-dev.jsonl`, at most `limit` pairs. */
export function loadQqp(dir: string, limit = Number.POSITIVE_INFINITY): QqpPair[] {
  const pairs: QqpPair[] = [];
  for (const line of readFileSync(join(dir, 'qqp-dev.jsonl'), 'utf8').split('\n')) {
    if (pairs.length >= limit) break;
    if (line.trim() === '') continue;
    const row: unknown = JSON.parse(line);
    if (!isRecord(row) || typeof row['a'] !== 'string' || typeof row['b'] !== 'string' || (row['duplicate'] !== 0 && row['duplicate'] !== 1)) {
      throw new Error(`qqp-dev.jsonl line ${pairs.length + 1}: expected {a, b, duplicate: 0|1}`);
    }
    pairs.push({ a: row['a'], b: row['b'], duplicate: row['duplicate'] === 1 });
  }
  return pairs;
}

/** Reads `gptcache-paraphrase-pairs.json`, at most `limit` pairs. */
export function loadParaphrases(dir: string, limit = Number.POSITIVE_INFINITY): ParaphrasePair[] {
  const rows: unknown = JSON.parse(readFileSync(join(dir, 'gptcache-paraphrase-pairs.json'), 'utf8'));
  if (!Array.isArray(rows)) throw new Error('gptcache-paraphrase-pairs.json: expected an array');
  return rows.slice(0, limit).map((row: unknown, i) => {
    if (!isRecord(row) || typeof row['origin'] !== 'string' || typeof row['similar'] !== 'string') {
      throw new Error(`gptcache-paraphrase-pairs.json item ${i}: expected {origin, similar}`);
    }
    return { origin: row['origin'], similar: row['similar'] };
  });
}

/** Calibration takes the even rows, the report the odd ones (the file is already in random order). */
export function halves<T>(rows: readonly T[]): { calibration: T[]; report: T[] } {
  return { calibration: rows.filter((_, i) => i % 2 === 0), report: rows.filter((_, i) => i % 2 === 1) };
}

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';

/** One MMLU question with whether each model answered it correctly. */
export interface Row {
  subject: string;
  prompt: string;
  weak: boolean;
  strong: boolean;
}

export const weakColumn = 'mistralai/Mixtral-8x7B-Instruct-v0.1';
export const strongColumn = 'gpt-4-1106-preview';
const relative = join('shared', 'data', 'routing', 'routellm-mmlu');

/** `--data` when given; else the first `shared/data/routing/routellm-mmlu` found walking up from `from`. */
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

/** Reads every `*.csv` of `dir` (one subject per file), at most `perSubject` rows each. */
export function loadRows(dir: string, perSubject = Number.POSITIVE_INFINITY): Map<string, Row[]> {
  const subjects = new Map<string, Row[]>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.csv')).sort()) {
    const subject = basename(file, '.csv').replace(/^mmlu_/, '');
    const records: Record<string, string>[] = parse(readFileSync(join(dir, file), 'utf8'), { columns: true, skip_empty_lines: true });
    const rows: Row[] = [];
    for (const record of records.slice(0, perSubject)) {
      const prompt = record['prompt'];
      const weak = record[weakColumn];
      const strong = record[strongColumn];
      if (prompt === undefined || weak === undefined || strong === undefined) throw new Error(`${file}: missing prompt or model columns`);
      rows.push({ subject, prompt, weak: weak === 'True', strong: strong === 'True' });
    }
    subjects.set(subject, rows);
  }
  return subjects;
}

/** Subject folds; the published figures hold out fold 2. */
export const folds = 5;
export const reportedFold = 2;

/**
 * Splits by subject: every fifth subject (sorted, starting at `fold`) is held out, so no
 * question's subject is seen in training.
 */
export function splitBySubject(subjects: Map<string, Row[]>, fold = reportedFold): { train: Row[]; validation: Row[]; heldOut: string[] } {
  const train: Row[] = [];
  const validation: Row[] = [];
  const heldOut: string[] = [];
  [...subjects.keys()].forEach((subject, i) => {
    const rows = subjects.get(subject)!;
    if (i % folds === fold) {
      validation.push(...rows);
      heldOut.push(subject);
    } else train.push(...rows);
  });
  return { train, validation, heldOut };
}

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadArenaBench } from './arena.js';

let dir = '';

const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** A snapshot shaped like arena-hard-auto's: two prompts plus the MT-Bench duplicate, two judged models. */
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-'));
  const bench = join(dir, 'data', 'arena-bench-v1');
  mkdirSync(join(bench, 'model_judgment'), { recursive: true });
  writeFileSync(
    join(bench, 'question.jsonl'),
    jsonl([
      { question_id: 'q1', category: 'arena-bench-v1', turns: ['Write a haiku about routers.'] },
      { question_id: 'q2', category: 'arena-bench-v1', turns: ['Prove that sqrt(2) is irrational.'] },
      { question_id: '91956666f79a4a9688fa40972cfa994c', category: 'arena-bench-v1', turns: ['the parking puzzle'] },
    ]),
  );
  writeFileSync(
    join(bench, 'model_judgment', 'strong.jsonl'),
    jsonl([
      { question_id: 'q1', model: 'strong', score: 9 },
      { question_id: 'q2', model: 'strong', score: 7 },
      { question_id: '91956666f79a4a9688fa40972cfa994c', model: 'strong', score: 10 },
    ]),
  );
  writeFileSync(
    join(bench, 'model_judgment', 'weak.jsonl'),
    jsonl([
      { question_id: 'q1', model: 'weak', score: -1 },
      { question_id: 'q2', model: 'weak', score: 3 },
    ]),
  );
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args]);
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'fixture');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadArenaBench', () => {
  it('labels an answer good from the threshold on, drops unscored rows and the MT-Bench duplicate', () => {
    const items = loadArenaBench({ mirror: dir, commit: 'HEAD', goodScore: 8 });
    expect(items.map((i) => i.prompt)).toEqual(['Write a haiku about routers.', 'Prove that sqrt(2) is irrational.']);
    expect(items[0]).toMatchObject({ source: 'arena-bench', group: 'arena-bench-v1', correct: { strong: true } });
    expect(items[0]!.correct.weak).toBeUndefined();
    expect(items[1]!.correct).toEqual({ strong: false, weak: false });
  });

  it('moves labels with the threshold', () => {
    const items = loadArenaBench({ mirror: dir, commit: 'HEAD', goodScore: 7 });
    expect(items[1]!.correct).toEqual({ strong: true, weak: false });
  });
});

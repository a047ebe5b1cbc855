import { execFileSync } from 'node:child_process';
import type { Item } from './data.js';

/** The snapshot of lmarena/arena-hard-auto read by default (git dir; `SVC_ARENA_HARD`). */
export const defaultArenaHard = process.env.SVC_ARENA_HARD ?? '/work/.mirror/lmarena+arena-hard-auto/repo';

/** The commit read: the first release, with 300 Chatbot Arena prompts judged 1-10 for 15 models. */
export const arenaHardCommit = '4a705dd6963f777aba2ae79259e3013934e6e012';

/** A judge score of at least this counts as a good answer (`SVC_ARENA_GOOD_SCORE`, default 8). */
export const defaultArenaGoodScore = Number(process.env.SVC_ARENA_GOOD_SCORE ?? 8);

const benchDir = 'data/arena-bench-v1';

/**
 * Prompts dropped because MT-Bench (reserved for acceptance) holds the same question: the parking
 * puzzle, MT-Bench 105 word for word (lm-sys/FastChat `fastchat/llm_judge/data/mt_bench/question.jsonl`
 * compared once; no other of the 300 prompts comes near any MT-Bench turn: next best character
 * ratio 0.58, no shared 5-gram).
 */
const mtBenchDuplicates = new Set(['91956666f79a4a9688fa40972cfa994c']);

export interface ArenaOptions {
  /** Git dir of the snapshot. */
  mirror?: string;
  commit?: string;
  /** Judge score (1-10) from which an answer counts as good. */
  goodScore?: number;
}

interface Question {
  id: string;
  prompt: string;
  category: string;
}

function parseQuestion(line: string): Question | undefined {
  const row: unknown = JSON.parse(line);
  if (typeof row !== 'object' || row === null) return undefined;
  const { question_id: id, turns, category } = row as Record<string, unknown>;
  if (typeof id !== 'string' || !Array.isArray(turns) || typeof turns[0] !== 'string') return undefined;
  return { id, prompt: turns[0], category: typeof category === 'string' ? category : 'arena-bench' };
}

/** `[model, question id, score]` of one judgment row, or undefined when the score is missing or -1 (the judge gave none). */
function parseJudgment(line: string): [string, string, number] | undefined {
  const row: unknown = JSON.parse(line);
  if (typeof row !== 'object' || row === null) return undefined;
  const { model, question_id: id, score } = row as Record<string, unknown>;
  if (typeof model !== 'string' || typeof id !== 'string' || typeof score !== 'number' || score < 1) return undefined;
  return [model, id, score];
}

const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');

/**
 * lmarena/arena-hard-auto's first benchmark (`data/arena-bench-v1`, Apache-2.0): 300 Chatbot Arena
 * user prompts (`turns[0]`) and, per model, a GPT-4 judge's 1-10 score of its answer against a
 * reference answer (`model_judgment/*.jsonl`), read from a fetched snapshot with `git show`. A
 * model's answer is good when its score is at least `goodScore`; rows without a score are dropped.
 * One task for all: the judge's `category` (a single `arena-bench-v1` in this release).
 */
export function loadArenaBench(options: ArenaOptions = {}): Item[] {
  const mirror = options.mirror ?? defaultArenaHard;
  const commit = options.commit ?? arenaHardCommit;
  const good = options.goodScore ?? defaultArenaGoodScore;
  const git = (...args: string[]) => execFileSync('git', ['-C', mirror, ...args], { maxBuffer: 1 << 28 }).toString('utf8');
  const items = new Map<string, Item>();
  for (const line of lines(git('show', `${commit}:${benchDir}/question.jsonl`))) {
    const q = parseQuestion(line);
    if (!q || mtBenchDuplicates.has(q.id)) continue;
    items.set(q.id, { source: 'arena-bench', group: q.category, subject: q.category, prompt: q.prompt, correct: {} });
  }
  const files = lines(git('ls-tree', '--name-only', commit, `${benchDir}/model_judgment/`)).filter((f) => f.endsWith('.jsonl'));
  for (const file of files) {
    for (const line of lines(git('show', `${commit}:${file}`))) {
      const judged = parseJudgment(line);
      const item = judged && items.get(judged[1]);
      if (judged && item) item.correct[judged[0]] = judged[2] >= good;
    }
  }
  return [...items.values()];
}

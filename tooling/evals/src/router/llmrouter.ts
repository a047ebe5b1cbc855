import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, type Item } from './data.js';

/**
 * Tasks reserved for the acceptance evaluation (issue 18), and their derivatives: GSM8K and MGSM
 * (GSM8K translated), ARC, MBPP, Winogrande, HellaSwag, MT-Bench, RouterBench. A task whose name
 * matches is never read.
 */
const reservedTask = /gsm8k|mgsm|(^|[^a-z])arc([^a-z]|$)|mbpp|hellaswag|winogrande|mt[-_ ]?bench|routerbench/i;

export const isReservedTask = (name: string): boolean => reservedTask.test(name);

/** Models whose answers fail the tasks' answer format rather than the question (MMLU accuracy 0-1%): their scores say nothing of difficulty. */
const formatFailing = new Set(['llama3-chatqa-1.5-8b', 'llama3-chatqa-1.5-70b']);

interface QueryRow {
  task_name: string;
  query: string;
}

interface ScoreRow {
  question: string;
  scores: string | Record<string, number>;
}

/** `{'a': 1.0, 'b': 0.5}` (Python dict repr, as the data ships) or an object -> scores by model. */
function parseScores(scores: ScoreRow['scores']): Record<string, number> {
  if (typeof scores !== 'string') return scores;
  return JSON.parse(scores.replace(/'/g, '"')) as Record<string, number>;
}

/**
 * ulab-uiuc/LLMRouter's per-model scores (9 open models, `data/dcrouter_preprocessed/{train,test}.json`)
 * joined by query text with the task names of `data/example_data/query_data/default_query_*.jsonl`,
 * read from a fetched mirror (git dir) with `git show`. Reserved tasks are dropped; a score >= 0.5
 * counts as a good answer. Cached as JSON under `cacheDir`.
 */
export function loadLlmRouter(mirror: string): Item[] {
  const cached = join(cacheDir, 'llmrouter.json');
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as Item[];
  const show = (path: string) => execFileSync('git', ['-C', mirror, 'show', `HEAD:${path}`], { maxBuffer: 1 << 30 }).toString('utf8');
  const taskOf = new Map<string, string>();
  for (const split of ['train', 'test']) {
    for (const line of show(`data/example_data/query_data/default_query_${split}.jsonl`).split('\n')) {
      if (line.trim() === '') continue;
      const row = JSON.parse(line) as QueryRow;
      if (!taskOf.has(row.query)) taskOf.set(row.query, row.task_name);
    }
  }
  const byPrompt = new Map<string, Item>();
  for (const split of ['train', 'test']) {
    for (const row of JSON.parse(show(`data/dcrouter_preprocessed/${split}.json`)) as ScoreRow[]) {
      const task = taskOf.get(row.question);
      if (task === undefined || isReservedTask(task) || byPrompt.has(row.question)) continue;
      const correct: Record<string, boolean> = {};
      for (const [model, score] of Object.entries(parseScores(row.scores))) if (!formatFailing.has(model)) correct[model] = score >= 0.5;
      byPrompt.set(row.question, { source: 'llmrouter', group: task, subject: task, prompt: row.question, correct });
    }
  }
  const items = [...byPrompt.values()];
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cached, JSON.stringify(items));
  return items;
}

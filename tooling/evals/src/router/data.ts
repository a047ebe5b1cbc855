import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';

/** One labelled prompt: which models answered it correctly. */
export interface Item {
  /** Data set it comes from (`routellm-mmlu`, `mmlu-pro`). */
  source: string;
  /** Subject group used to split folds (an MMLU-Pro category; MMLU subjects are mapped onto them). */
  group: string;
  /** Finer subject (MMLU subject or MMLU-Pro `src`). */
  subject: string;
  prompt: string;
  /** Model name -> answered correctly. */
  correct: Record<string, boolean>;
}

export const cacheDir = process.env.SVC_ROUTER_CACHE ?? '/tmp/svc-router';
const routellmRelative = join('shared', 'data', 'routing', 'routellm-mmlu');

/** The first `shared/data/routing/routellm-mmlu` found walking up from `from`, or `given`. */
export function findRouteLlmDir(from: string, given?: string): string {
  if (given) return resolve(given);
  let dir = resolve(from);
  for (;;) {
    const candidate = join(dir, routellmRelative);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Cannot find ${routellmRelative} above ${from}; pass --mmlu <dir>.`);
    dir = parent;
  }
}

/** RouteLLM's MMLU responses: 57 subjects, GPT-4 and Mixtral correctness. Subjects are grouped by `subjectGroup`. */
export function loadRouteLlmMmlu(dir: string, subjectGroup: ReadonlyMap<string, string>): Item[] {
  const items: Item[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.csv')).sort()) {
    const subject = basename(file, '.csv').replace(/^mmlu_/, '');
    const records: Record<string, string>[] = parse(readFileSync(join(dir, file), 'utf8'), { columns: true, skip_empty_lines: true });
    for (const record of records) {
      const { prompt, ...models } = record;
      if (prompt === undefined) throw new Error(`${file}: no prompt column`);
      const correct: Record<string, boolean> = {};
      for (const [model, value] of Object.entries(models)) correct[model] = value === 'True';
      items.push({ source: 'routellm-mmlu', group: subjectGroup.get(subject) ?? 'other', subject, prompt, correct });
    }
  }
  return items;
}

interface ProOutput {
  question_id: string;
  question: string;
  options: string[] | string;
  category: string;
  src: string;
  answer: string;
  pred: string | null;
}

const letters = 'ABCDEFGHIJKLMNOP';

function proPrompt(row: ProOutput): string {
  const options = Array.isArray(row.options) ? row.options : [];
  return `${row.question}\n${options.map((o, i) => `${letters[i]}. ${o}`).join('\n')}\nAnswer:`;
}

/**
 * MMLU-Pro per-model correctness from a fetched TIGER-AI-Lab/MMLU-Pro mirror (git dir): every
 * `eval_results/model_outputs_<model>_5shots.zip` present in the snapshot, read with `git show`
 * and `funzip`, joined by question id. Cached as JSON under `cacheDir`.
 */
export function loadMmluPro(mirror: string): Item[] {
  const cached = join(cacheDir, 'mmlu-pro.json');
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as Item[];
  const git = (...args: string[]) => execFileSync('git', ['-C', mirror, ...args], { maxBuffer: 1 << 30 });
  const files = git('ls-tree', '-r', '--name-only', 'HEAD', 'eval_results').toString().split('\n').filter((f) => /^eval_results\/model_outputs_.+_5shots\.zip$/.test(f));
  const byId = new Map<string, Item>();
  for (const file of files) {
    const model = file.replace(/^eval_results\/model_outputs_/, '').replace(/_5shots\.zip$/, '');
    let json: Buffer;
    try {
      json = execFileSync('sh', ['-c', `git -C "$0" show "HEAD:$1" | funzip`, mirror, file], { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      continue; // absent from the snapshot (over its file-size limit)
    }
    let rows: ProOutput[];
    try {
      rows = JSON.parse(json.toString('utf8')) as ProOutput[];
    } catch {
      continue;
    }
    if (!Array.isArray(rows) || rows.length < 10_000) continue;
    for (const row of rows) {
      if (typeof row.question !== 'string' || typeof row.src !== 'string' || typeof row.category !== 'string') continue;
      let item = byId.get(row.question_id);
      if (!item) {
        item = { source: 'mmlu-pro', group: row.category, subject: row.src, prompt: proPrompt(row), correct: {} };
        byId.set(row.question_id, item);
      }
      item.correct[model] = row.pred === row.answer;
    }
  }
  const items = [...byId.values()];
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cached, JSON.stringify(items));
  return items;
}

/** MMLU subject -> MMLU-Pro category, from MMLU-Pro's `src` (`ori_mmlu-<subject>`). */
export function mmluSubjectGroups(pro: readonly Item[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const item of pro) {
    if (!item.subject.startsWith('ori_mmlu-')) continue;
    const subject = item.subject.slice('ori_mmlu-'.length);
    const byGroup = counts.get(subject) ?? new Map<string, number>();
    byGroup.set(item.group, (byGroup.get(item.group) ?? 0) + 1);
    counts.set(subject, byGroup);
  }
  const groups = new Map<string, string>();
  for (const [subject, byGroup] of counts) groups.set(subject, [...byGroup].sort((a, b) => b[1] - a[1])[0]![0]);
  return groups;
}

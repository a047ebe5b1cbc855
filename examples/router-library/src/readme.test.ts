import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { consumerTsconfig, learningPostlude, readmeSnippet, snippetPostlude } from './readme-snippet.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const readme = join(root, '../../packages/router/README.md');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Compiles `source` as a consumer project in `.readme/<dir>` against the emitted types, runs it, and parses the last line it prints. */
function compileAndRun<T>(dir: string, source: string): T {
  const work = join(root, '.readme', dir);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'snippet.ts'), source);
  writeFileSync(join(work, 'tsconfig.json'), JSON.stringify(consumerTsconfig, null, 2));
  writeFileSync(join(work, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  execFileSync(process.execPath, [tsc, '-p', work], { stdio: 'pipe' });
  const printed = execFileSync(process.execPath, [join(work, 'out', 'snippet.js')], { cwd: work, encoding: 'utf8' });
  return JSON.parse(printed.trim().split('\n').at(-1)!) as T;
}

interface SnippetOutput {
  dimensions: number;
  strongWin: number;
  ranked: string[];
  model: string;
  cascade: { strong: string; weak: string; winRate: number; threshold: number } | null;
  threshold: number;
}

interface LearningOutput {
  before: string;
  after: string;
  strict: string;
  learned: Record<string, unknown> | null;
  estimate: { winRate: number; lower: number; upper: number; judged: number };
}

describe("the router README's lines, as another TypeScript project writes them", () => {
  it('compile against the emitted types and route with the default local encoder', () => {
    const out = compileAndRun<SnippetOutput>('route', `${readmeSnippet(readme)}${snippetPostlude}`);
    expect(out.dimensions).toBe(384);
    expect(out.strongWin).toBeGreaterThan(0.5);
    expect(out.strongWin).toBeLessThanOrEqual(1);
    expect(out.ranked.sort()).toEqual(['acme/big', 'openai/gpt-4o-mini']);
    expect(['acme/big', 'openai/gpt-4o-mini']).toContain(out.model);
    expect(out.cascade?.strong).toBe('acme/big');
    expect(out.threshold).toBeGreaterThan(0);
    expect(out.threshold).toBeLessThan(1);
  });

  it('record judged pairs and a feedback score, then route to the cheaper model judged as good', () => {
    const out = compileAndRun<LearningOutput>('learn', `${readmeSnippet(readme, 'Learn what is good on your own traffic')}${learningPostlude}`);
    expect(out.before).toBe('acme/big');
    expect(out.after).toBe('acme/small');
    expect(out.strict).toBe('acme/big');
    expect(out.learned).toMatchObject({ incumbent: 'acme/big', model: 'acme/small', reason: 'learned', samples: 1200, gate: { status: 'promoted', reason: 'judged_not_worse' } });
    expect(out.estimate.winRate).toBeCloseTo(0.5, 10);
    expect(out.estimate.lower).toBeGreaterThan(0.45);
    expect(out.estimate.upper).toBeLessThan(0.55);
    expect(out.estimate.judged).toBe(1200);
  });
});

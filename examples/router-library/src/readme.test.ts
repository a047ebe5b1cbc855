import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { consumerTsconfig, readmeSnippet, snippetPostlude } from './readme-snippet.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = join(root, '.readme');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

interface SnippetOutput {
  dimensions: number;
  strongWin: number;
  ranked: string[];
  model: string;
  cascade: { strong: string; weak: string; winRate: number; threshold: number } | null;
  threshold: number;
}

describe("the router README's lines, as another TypeScript project writes them", () => {
  it('compile against the emitted types and route with the default local encoder', () => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, 'snippet.ts'), `${readmeSnippet(join(root, '../../packages/router/README.md'))}${snippetPostlude}`);
    writeFileSync(join(work, 'tsconfig.json'), JSON.stringify(consumerTsconfig, null, 2));
    writeFileSync(join(work, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    execFileSync(process.execPath, [tsc, '-p', work], { stdio: 'pipe' });
    const printed = execFileSync(process.execPath, [join(work, 'out', 'snippet.js')], { cwd: work, encoding: 'utf8' });
    const out = JSON.parse(printed.trim().split('\n').at(-1)!) as SnippetOutput;
    expect(out.dimensions).toBe(384);
    expect(out.strongWin).toBeGreaterThan(0.5);
    expect(out.strongWin).toBeLessThanOrEqual(1);
    expect(out.ranked.sort()).toEqual(['acme/big', 'openai/gpt-4o-mini']);
    expect(['acme/big', 'openai/gpt-4o-mini']).toContain(out.model);
    expect(out.cascade?.strong).toBe('acme/big');
    expect(out.threshold).toBeGreaterThan(0);
    expect(out.threshold).toBeLessThan(1);
  });
});

import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Test code, which the size rule does not cover: `*.test.ts(x)`, `*.spec.*`, `*.bench.*`, shared
 * suites (`*.suite.ts`), declaration files, anything under `test/`, `__tests__/` or `__fixtures__/`, and helpers whose
 * dash-separated name has the word `test` (`test-app.ts`, `control-test-kit.ts`).
 */
export function isTestFile(path: string): boolean {
  const segments = path.split(/[\\/]/);
  const base = segments.at(-1) ?? '';
  if (/\.(test|spec|bench|suite)\.tsx?$/.test(base) || base.endsWith('.d.ts')) return true;
  if (segments.slice(0, -1).some((dir) => dir === 'test' || dir === '__tests__' || dir === '__fixtures__')) return true;
  return base.replace(/\.tsx?$/, '').split(/[-.]/).includes('test');
}

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (/\.tsx?$/.test(entry.name)) out.push(path);
  }
}

/** The non-test `.ts`/`.tsx` files under `<root>/<group>/<package>/src` for each group, relative to `root`, sorted. */
export function sourceFiles(root: string, groups: readonly string[]): string[] {
  const out: string[] = [];
  for (const group of groups) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const entry of readdirSync(groupDir, { withFileTypes: true })) {
      const src = join(groupDir, entry.name, 'src');
      if (entry.isDirectory() && existsSync(src)) walk(src, out);
    }
  }
  return out
    .map((path) => relative(root, path))
    .filter((path) => !isTestFile(path))
    .sort();
}

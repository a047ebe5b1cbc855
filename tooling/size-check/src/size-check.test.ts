import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSizeCheck, sizeReport } from './size-check.js';
import { isTestFile } from './source-files.js';

const root = mkdtempSync(join(tmpdir(), 'size-check-'));
const wide = 'export function wide(a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7) {}\n';
const files: Record<string, string> = {
  'packages/core/src/ok.ts': 'export function ok(a: 1) {}\n',
  'packages/core/src/deep/wide.ts': `\n${wide}`,
  'packages/core/src/wide.test.ts': wide,
  'packages/core/src/test/helpers.ts': wide,
  'packages/core/dist/wide.js': wide,
  'packages/core/scripts/wide.ts': wide,
  'apps/web/src/page.tsx': 'export const Page = (a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7) => <p />;\n',
  'apps/web/src/test-app.ts': wide,
  'tooling/bench/src/wide.ts': wide,
};
for (const [path, text] of Object.entries(files)) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('size check', () => {
  it("reads the non-test source of packages' and apps' src folders only", () => {
    const result = runSizeCheck({ root });
    expect(result.files).toBe(3);
    expect(result.oversized.map((f) => `${f.file}:${f.line} ${f.name}`)).toEqual(['apps/web/src/page.tsx:1 Page', 'packages/core/src/deep/wide.ts:2 wide']);
  });

  it('prints file:line name lines/params and exits non-zero when any function is over', () => {
    const report = sizeReport(runSizeCheck({ root }));
    expect(report.exitCode).toBe(1);
    expect(report.text.split('\n')).toEqual([
      'file:line name lines/params',
      'apps/web/src/page.tsx:1 Page 1/7',
      'packages/core/src/deep/wide.ts:2 wide 1/7',
      '2 functions over 60 lines or 6 parameters (3 files read)',
      '',
    ]);
  });

  it('exits zero when nothing is over', () => {
    const report = sizeReport(runSizeCheck({ root, limits: { maxLines: 60, maxParams: 7 } }), { maxLines: 60, maxParams: 7 });
    expect(report).toEqual({ text: '0 functions over 60 lines or 7 parameters (3 files read)\n', exitCode: 0 });
  });

  it('tells test helpers from source', () => {
    expect(['a/src/x.test.tsx', 'a/src/x.bench.ts', 'a/src/exact-cache.suite.ts', 'a/src/__fixtures__/y.ts', 'a/src/control-test-kit.ts', 'a/src/x.d.ts'].every(isTestFile)).toBe(true);
    expect(['a/src/latest.ts', 'a/src/contest.ts', 'a/src/testing-ground.ts'].some(isTestFile)).toBe(false);
  });
});

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles } from './import-cycles.js';
import { runSizeCheck } from './size-check.js';
import { againstAllowed, readShapeAllowed } from './shape-allowed.js';

/**
 * The repository's shape (issue #16), checked on every CI run: no function over 60 lines or
 * 6 parameters in packages/ and apps/, no import cycle between files. shape-allowed.txt names what
 * is still let through; an entry that is fixed must leave the list, so it only shrinks.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const allowed = readShapeAllowed(fileURLToPath(new URL('../shape-allowed.txt', import.meta.url)));

describe('repository shape', () => {
  it('has no function over 60 lines or 6 parameters in packages/ and apps/ beyond shape-allowed.txt', () => {
    const found = runSizeCheck({ root }).oversized.map((f) => `${f.file} ${f.name}`);
    const { unexpected, stale } = againstAllowed(found, allowed.functions);
    expect(unexpected, 'over 60 lines or 6 parameters (split it by what it holds; a settings object for parameters)').toEqual([]);
    expect(stale, 'fixed: delete these lines from tooling/size-check/shape-allowed.txt').toEqual([]);
  });

  it('has no import cycle between files of apps, packages, tooling and examples beyond shape-allowed.txt', { timeout: 600_000 }, async () => {
    const found = await importCycles(root, ['apps', 'packages', 'tooling', 'examples']);
    const { unexpected, stale } = againstAllowed(found, allowed.cycles);
    expect(unexpected, 'import cycles (madge --circular)').toEqual([]);
    expect(stale, 'fixed: delete these lines from tooling/size-check/shape-allowed.txt').toEqual([]);
  });
});

#!/usr/bin/env node
// pnpm size-check [--max-lines=60] [--max-params=6] [group ...]: run from the repository root.
import { parseArgs } from 'node:util';
import { defaultLimits } from './find-oversized.js';
import { runSizeCheck, sizeReport } from './size-check.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'max-lines': { type: 'string' }, 'max-params': { type: 'string' }, root: { type: 'string' } },
});
const limits = {
  maxLines: Number(values['max-lines'] ?? defaultLimits.maxLines),
  maxParams: Number(values['max-params'] ?? defaultLimits.maxParams),
};
const result = runSizeCheck({ root: values.root ?? process.cwd(), groups: positionals.length > 0 ? positionals : ['packages', 'apps'], limits });
const report = sizeReport(result, limits);
process.stdout.write(report.text);
process.exitCode = report.exitCode;

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Oversized, type SizeLimits, defaultLimits, findOversized } from './find-oversized.js';
import { sourceFiles } from './source-files.js';

export interface SizeCheckSettings {
  /** The repository root; paths are reported relative to it. */
  root: string;
  /** Folders of packages to read (`packages`, `apps`). */
  groups?: readonly string[];
  limits?: SizeLimits;
}

export interface SizeCheckResult {
  files: number;
  oversized: Oversized[];
}

/** Every function over the limits in the non-test source of `groups`, in file and line order. */
export function runSizeCheck(settings: SizeCheckSettings): SizeCheckResult {
  const files = sourceFiles(settings.root, settings.groups ?? ['packages', 'apps']);
  const oversized = files.flatMap((file) => findOversized(file, readFileSync(join(settings.root, file), 'utf8'), settings.limits ?? defaultLimits));
  return { files: files.length, oversized };
}

/** One report line: `file:line name lines/params`. */
export function formatOversized(found: Oversized): string {
  return `${found.file}:${found.line} ${found.name} ${found.lines}/${found.params}`;
}

/** The report: one line per function, then the count; `exitCode` 1 when any function is over. */
export function sizeReport(result: SizeCheckResult, limits: SizeLimits = defaultLimits): { text: string; exitCode: number } {
  const summary = `${result.oversized.length} functions over ${limits.maxLines} lines or ${limits.maxParams} parameters (${result.files} files read)`;
  if (result.oversized.length === 0) return { text: `${summary}\n`, exitCode: 0 };
  const lines = result.oversized.map(formatOversized);
  return { text: `file:line name lines/params\n${lines.join('\n')}\n${summary}\n`, exitCode: 1 };
}

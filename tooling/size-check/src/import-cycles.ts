import { join } from 'node:path';
import madge from 'madge';

/**
 * Import cycles between the TypeScript files of `dirs` (under `root`), as `a.ts > b.ts > ...`
 * paths relative to `root`: what `madge --circular --extensions ts,tsx <dirs>` prints.
 */
export async function importCycles(root: string, dirs: readonly string[]): Promise<string[]> {
  const result = await madge(dirs.map((dir) => join(root, dir)), { baseDir: root, fileExtensions: ['ts', 'tsx'], excludeRegExp: [/node_modules/, /[\\/]dist[\\/]/] });
  return result.circular().map((cycle) => cycle.join(' > '));
}

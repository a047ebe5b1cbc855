import { readFileSync } from 'node:fs';

/** The entries of the allow-list file: `function <file> <name>` and `cycle <file> > <file> ...`. */
export interface ShapeAllowed {
  functions: string[];
  cycles: string[];
}

/** Reads the allow-list; `#` starts a comment line, blank lines are skipped. */
export function readShapeAllowed(path: string): ShapeAllowed {
  const allowed: ShapeAllowed = { functions: [], cycles: [] };
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [kind, ...rest] = line.split(/\s+/);
    if (kind === 'function') allowed.functions.push(rest.join(' '));
    else if (kind === 'cycle') allowed.cycles.push(rest.join(' '));
    else throw new Error(`${path}: an entry starts with "function" or "cycle", not: ${line}`);
  }
  return allowed;
}

/** What is found but not allowed, and what is allowed but no longer found (to delete from the list). */
export function againstAllowed(found: readonly string[], allowed: readonly string[]): { unexpected: string[]; stale: string[] } {
  return { unexpected: found.filter((entry) => !allowed.includes(entry)), stale: allowed.filter((entry) => !found.includes(entry)) };
}

/**
 * The trainer's tables through @svc/semantic's fixed projection (fixed-projection.ts; CONTEXT_PROJ=k
 * and REPLACED_PROJ=k in role-train.ts), as an entry stores the states and a reduced table ships.
 */
import { fixedProjection, projectRows, TABLE_SEED, type WordTable } from '@svc/semantic';
import type { TokenTable } from '../alignment/token-cache.js';

/** The token table with every state projected to `outputs` numbers (unit rows). */
export function projectTable(table: TokenTable, outputs: number, hidden = 384): TokenTable {
  const matrix = fixedProjection(hidden, outputs);
  return { ...table, states: table.states.map((s) => projectRows(s, matrix, hidden, outputs)) };
}

/** The word-piece table read through the same kind of projection (another seed). */
export function projectWordTable(table: WordTable, outputs: number, hidden = 384): WordTable {
  const matrix = fixedProjection(hidden, outputs, TABLE_SEED);
  const rows = new Map<number, Float32Array>();
  return (id) => {
    const known = rows.get(id);
    if (known) return known;
    const row = projectRows(table(id), matrix, hidden, outputs);
    rows.set(id, row);
    return row;
  };
}

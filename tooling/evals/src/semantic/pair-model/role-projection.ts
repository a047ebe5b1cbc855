/**
 * A fixed projection for the replaced-word readers tried for issue #27 (CONTEXT_PROJ=k and
 * REPLACED_PROJ=k in role-train.ts): a seeded Gaussian matrix (nothing fitted, so out-of-fold
 * figures stay honest) that maps the encoder's 384-number token states, or its word-piece table's
 * rows, to k numbers, as a cache entry could store them beside the pair model's 32. Cosines of
 * projected rows approximate the raw ones (Johnson-Lindenstrauss: noise ~1/sqrt(k)).
 */
import type { TokenTable } from '../alignment/token-cache.js';
import { seeded } from '../../router/metrics.js';
import type { WordTable } from './role-replaced.js';

/** `inputs x outputs` Gaussian entries (Box-Muller), row-major by input. */
export function fixedProjection(inputs: number, outputs: number, seed = 27): Float32Array {
  const next = seeded(seed); // mulberry32, so the matrix is the same on every machine
  const out = new Float32Array(inputs * outputs);
  for (let i = 0; i < out.length; i++) out[i] = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return out;
}

/** Rows of `inputs` numbers projected to `outputs`, each of unit length. */
export function projectRows(rows: Float32Array, matrix: Float32Array, inputs: number, outputs: number): Float32Array {
  const n = rows.length / inputs;
  const out = new Float32Array(n * outputs);
  for (let r = 0; r < n; r++) {
    for (let k = 0; k < inputs; k++) {
      const x = rows[r * inputs + k]!;
      if (x === 0) continue;
      for (let o = 0; o < outputs; o++) out[r * outputs + o]! += x * matrix[k * outputs + o]!;
    }
    let s = 0;
    for (let o = 0; o < outputs; o++) s += out[r * outputs + o]! ** 2;
    const scale = 1 / Math.max(Math.sqrt(s), 1e-12);
    for (let o = 0; o < outputs; o++) out[r * outputs + o]! *= scale;
  }
  return out;
}

/** The token table with every state projected to `outputs` numbers (unit rows). */
export function projectTable(table: TokenTable, outputs: number, hidden = 384): TokenTable {
  const matrix = fixedProjection(hidden, outputs);
  return { ...table, states: table.states.map((s) => projectRows(s, matrix, hidden, outputs)) };
}

/** The word-piece table read through the same kind of projection (another seed). */
export function projectWordTable(table: WordTable, outputs: number, hidden = 384): WordTable {
  const matrix = fixedProjection(hidden, outputs, 28);
  const rows = new Map<number, Float32Array>();
  return (id) => {
    const known = rows.get(id);
    if (known) return known;
    const row = projectRows(table(id), matrix, hidden, outputs);
    rows.set(id, row);
    return row;
  };
}

/**
 * The fixed projection the replaced-word readers read through (issue #27): a seeded Gaussian
 * matrix (nothing fitted, so the role model's out-of-fold figures stay honest) that maps the
 * encoder's 384-number token states, or its word-piece table's rows, to k numbers, as an entry
 * stores them beside the pair model's 32. Cosines of projected rows approximate the raw ones
 * (Johnson-Lindenstrauss: noise ~1/sqrt(k)).
 */
import { seededRandom } from '@svc/core';

/** The seed of the token states' projection (an entry's stored context numbers). */
export const CONTEXT_SEED = 27;
/** The seed of the word-piece table's projection (the reduced table). */
export const TABLE_SEED = 28;

/** `inputs x outputs` Gaussian entries (Box-Muller), row-major by input. */
export function fixedProjection(inputs: number, outputs: number, seed = CONTEXT_SEED): Float32Array {
  const next = seededRandom(seed);
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

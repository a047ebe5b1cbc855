/**
 * Where a partition's unit vectors live: `[capacity, dimensions]` row-major, scored by dot
 * product with a query. {@link JsRows} in a Float32Array; `SimdRows` in WebAssembly memory.
 */
export interface RowStorage {
  /** Room for at least `rows` rows (contents kept). */
  reserve(rows: number): void;
  set(row: number, unit: Float32Array): void;
  move(from: number, to: number): void;
  /** The rows as one Float32Array, valid until the next {@link reserve}. */
  rows(): Float32Array;
  /** Dot products of `query` with rows `0..rows-1` into `out[0..rows-1]`. */
  scores(query: Float32Array, rows: number, out: Float32Array): void;
  /** Dot products of `query` with the listed rows, each into `out[row]` (other entries untouched). */
  scoresOf(query: Float32Array, rows: readonly number[], out: Float32Array): void;
}

/** Rows in a JavaScript Float32Array, scored by a scalar loop. */
export class JsRows implements RowStorage {
  private matrix: Float32Array;

  constructor(
    private readonly dimensions: number,
    rows: number,
  ) {
    this.matrix = new Float32Array(dimensions * rows);
  }

  reserve(rows: number): void {
    if (rows * this.dimensions <= this.matrix.length) return;
    const grown = new Float32Array(rows * this.dimensions);
    grown.set(this.matrix);
    this.matrix = grown;
  }

  set(row: number, unit: Float32Array): void {
    this.matrix.set(unit, row * this.dimensions);
  }

  move(from: number, to: number): void {
    const d = this.dimensions;
    this.matrix.copyWithin(to * d, from * d, (from + 1) * d);
  }

  rows(): Float32Array {
    return this.matrix;
  }

  scores(query: Float32Array, rows: number, out: Float32Array): void {
    const d = this.dimensions;
    for (let row = 0; row < rows; row++) out[row] = dot(query, this.matrix, row * d, d);
  }

  scoresOf(query: Float32Array, rows: readonly number[], out: Float32Array): void {
    const d = this.dimensions;
    for (const row of rows) out[row] = dot(query, this.matrix, row * d, d);
  }
}

/** One row's dot product, four accumulators so the loop does not wait on one sum. */
function dot(q: Float32Array, m: Float32Array, base: number, d: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < d; i += 4) {
    s0 += q[i]! * m[base + i]!;
    s1 += q[i + 1]! * m[base + i + 1]!;
    s2 += q[i + 2]! * m[base + i + 2]!;
    s3 += q[i + 3]! * m[base + i + 3]!;
  }
  for (; i < d; i++) s0 += q[i]! * m[base + i]!;
  return s0 + s1 + s2 + s3;
}

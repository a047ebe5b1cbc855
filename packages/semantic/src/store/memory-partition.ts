import type { VectorPayload } from './interface.js';
import { JsRows, type RowStorage } from './js-rows.js';
import { SignSketch } from './sign-sketch.js';
import { SimdRows } from './simd-rows.js';
import { SubjectRows } from './subject-rows.js';

/**
 * Rows from which a partition keeps its vectors in WebAssembly memory, for the SIMD scan.
 * Smaller partitions scan fast enough in JavaScript, and the bound keeps the number of
 * WebAssembly memories (each reserves address space) at the store's capacity / 1,024.
 */
export const SIMD_MIN_ROWS = 1024;

export interface PartitionEntry {
  id: string;
  payload: VectorPayload;
}

/**
 * The points of one organisation and scope: unit vectors packed row by row ({@link RowStorage}),
 * so a brute-force search is a single sequential pass over memory, and beside
 * them each row's sign bits ({@link SignSketch}), the pre-filter of a dense search with a high
 * floor. From {@link SIMD_MIN_ROWS} rows the vectors move into WebAssembly memory
 * ({@link SimdRows}), where the SIMD scan scores them. Removal moves the last row into the hole.
 */
export class MemoryPartition {
  private capacity = 16;
  private storage: RowStorage;
  /** Whether the move to WebAssembly memory was tried (it is, once, at SIMD_MIN_ROWS rows). */
  private simdTried = false;
  private readonly sketch: SignSketch;
  private entries: PartitionEntry[] = [];
  private rows = new Map<string, number>();
  private readonly subjects = new SubjectRows();
  /** Scores of one subject's rows, by row (reused: a search allocates no row-sized buffer). */
  private scratch = new Float32Array(16);

  constructor(readonly dimensions: number) {
    this.storage = new JsRows(dimensions, this.capacity);
    this.sketch = new SignSketch(dimensions, this.capacity);
  }

  get size(): number {
    return this.entries.length;
  }

  get(id: string): PartitionEntry | undefined {
    const row = this.rows.get(id);
    return row === undefined ? undefined : this.entries[row];
  }

  /** Adds or replaces; `unit` must have length `dimensions` and norm 1. */
  set(entry: PartitionEntry, unit: Float32Array): void {
    let row = this.rows.get(entry.id);
    if (row === undefined) {
      row = this.entries.length;
      if (row === this.capacity) this.grow();
      this.rows.set(entry.id, row);
      this.entries.push(entry);
    } else {
      this.subjects.remove(this.entries[row]!.payload.subject, row);
      this.entries[row] = entry;
    }
    this.subjects.add(entry.payload.subject, row);
    this.storage.set(row, unit);
    this.sketch.set(row, unit);
    if (!this.simdTried && this.entries.length >= SIMD_MIN_ROWS) this.moveToSimd();
  }

  /** Doubles the room for rows. */
  private grow(): void {
    this.capacity *= 2;
    this.scratch = new Float32Array(this.capacity);
    this.sketch.grow(this.capacity);
    this.storage.reserve(this.capacity);
  }

  /** Moves every row into WebAssembly memory (once; where the runtime has no SIMD they stay). */
  private moveToSimd(): void {
    this.simdTried = true;
    const d = this.dimensions;
    const simd = SimdRows.create(d, this.capacity);
    if (!simd) return;
    const rows = this.storage.rows();
    for (let row = 0; row < this.entries.length; row++) simd.set(row, rows.subarray(row * d, (row + 1) * d));
    this.storage = simd;
  }

  delete(id: string): void {
    const row = this.rows.get(id);
    if (row === undefined) return;
    const last = this.entries.length - 1;
    this.subjects.remove(this.entries[row]!.payload.subject, row);
    if (row !== last) {
      const moved = this.entries[last]!;
      this.entries[row] = moved;
      this.rows.set(moved.id, row);
      this.subjects.move(moved.payload.subject, last, row);
      this.storage.move(last, row);
      this.sketch.move(last, row);
    }
    this.entries.pop();
    this.rows.delete(id);
  }

  ids(): string[] {
    return this.entries.map((e) => e.id);
  }

  /**
   * The `limit` best points of one subject with score >= minScore and `keep(entry)` true, best
   * first: only that subject's rows are scored.
   */
  searchSubject(unit: Float32Array, subject: string, query: { limit: number; minScore: number }, keep: (entry: PartitionEntry) => boolean): { entry: PartitionEntry; score: number }[] {
    const rows = this.subjects.of(subject);
    this.storage.scoresOf(unit, rows, this.scratch);
    // Read before `keep` runs: it may delete (expired) points, which moves rows.
    const found = rows.map((row) => ({ entry: this.entries[row]!, score: this.scratch[row]! })).filter((f) => f.score >= query.minScore);
    found.sort((a, b) => b.score - a.score);
    const best: { entry: PartitionEntry; score: number }[] = [];
    for (const f of found) {
      if (best.length === query.limit) break;
      if (keep(f.entry)) best.push(f);
    }
    return best;
  }

  /** The `limit` best entries with score >= minScore and `keep(entry)` true, best first. */
  search(unit: Float32Array, limit: number, minScore: number, keep: (entry: PartitionEntry) => boolean): { entry: PartitionEntry; score: number }[] {
    const d = this.dimensions;
    // Hashed-feature queries are sparse (a question touches ~150 of 512 buckets): then only
    // their non-zero coordinates are multiplied, which is what makes 10k entries affordable.
    let nonZero = 0;
    for (let i = 0; i < d; i++) if (unit[i] !== 0) nonZero++;
    const index = new Int32Array(nonZero <= d / 2 ? nonZero : 0);
    const weight = new Float32Array(index.length);
    if (index.length > 0) for (let i = 0, k = 0; i < d; i++) if (unit[i] !== 0) [index[k], weight[k++]] = [i, unit[i]!];
    const best: { entry: PartitionEntry; score: number }[] = [];
    const scores = new Float32Array(this.entries.length);
    const cutoff = index.length > 0 ? undefined : this.sketch.cutoff(minScore);
    if (index.length > 0) sparseScores(index, weight, this.storage.rows(), d, scores);
    else if (cutoff === undefined) this.storage.scores(unit, this.entries.length, scores);
    else {
      // Rows whose signs differ in more than `cutoff` coordinates are (all but certainly) under the floor.
      scores.fill(-2);
      this.storage.scoresOf(unit, this.sketch.within(unit, cutoff, this.entries.length), scores);
    }
    // Rows may be deleted by `keep` (expired); walking from the end keeps the unvisited rows in place.
    for (let row = scores.length - 1; row >= 0; row--) {
      const score = scores[row]!;
      if (score < minScore || (best.length === limit && score <= best[best.length - 1]!.score)) continue;
      const entry = this.entries[row]!;
      if (!keep(entry)) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.score < score) at--;
      best.splice(at, 0, { entry, score });
      if (best.length > limit) best.pop();
    }
    return best;
  }
}

/** One tight loop per query, so the JIT keeps everything in registers. */
function sparseScores(index: Int32Array, weight: Float32Array, m: Float32Array, d: number, out: Float32Array): void {
  const n = index.length;
  for (let row = 0, base = 0; row < out.length; row++, base += d) {
    let s0 = 0;
    let s1 = 0;
    let k = 0;
    for (; k + 1 < n; k += 2) {
      s0 += weight[k]! * m[base + index[k]!]!;
      s1 += weight[k + 1]! * m[base + index[k + 1]!]!;
    }
    if (k < n) s0 += weight[k]! * m[base + index[k]!]!;
    out[row] = s0 + s1;
  }
}

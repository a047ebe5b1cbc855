/** Bits set in a 32-bit word (SWAR: no popcount instruction in JavaScript). */
function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  v = (v + (v >>> 4)) & 0x0f0f0f0f;
  return Math.imul(v, 0x01010101) >>> 24;
}

/**
 * The sign bit of every coordinate of each row (48 bytes for 384 dimensions), so a dense search
 * with a high floor reads 1/32 of the vectors' bytes first: two unit vectors at cosine c differ in
 * about d·acos(c)/π signs (random-hyperplane hashing), so a row whose signs differ from the
 * query's in more than {@link cutoff} coordinates is skipped and only the rest is scored exactly.
 * The cutoff leaves 6 standard deviations of margin; the sentence encoder's coordinates are not
 * random hyperplanes, so its recall is measured (docs/caching.md, "Stores").
 */
export class SignSketch {
  private readonly words: number;
  private bits: Int32Array;
  private readonly query: Int32Array;

  constructor(
    private readonly dimensions: number,
    rows: number,
  ) {
    this.words = Math.ceil(dimensions / 32);
    this.bits = new Int32Array(this.words * rows);
    this.query = new Int32Array(this.words);
  }

  grow(rows: number): void {
    const grown = new Int32Array(this.words * rows);
    grown.set(this.bits);
    this.bits = grown;
  }

  set(row: number, vector: Float32Array): void {
    this.signsOf(vector, this.bits, row * this.words);
  }

  move(from: number, to: number): void {
    this.bits.copyWithin(to * this.words, from * this.words, (from + 1) * this.words);
  }

  /**
   * The most differing signs a row at cosine >= `minScore` shows, or undefined when the floor is
   * too low for the sketch to skip much (a plain scan is then cheaper) or the vectors too short.
   */
  cutoff(minScore: number): number | undefined {
    if (this.dimensions < 128 || minScore < 0.5) return undefined;
    const p = Math.acos(Math.min(1, minScore)) / Math.PI;
    const cutoff = Math.ceil(this.dimensions * p + 6 * Math.sqrt(this.dimensions * p * (1 - p)));
    return cutoff < this.dimensions * 0.4 ? cutoff : undefined;
  }

  /** Rows `0..rows-1` whose signs differ from `vector`'s in at most `cutoff` coordinates. */
  within(vector: Float32Array, cutoff: number, rows: number): number[] {
    const { words, bits, query } = this;
    this.signsOf(vector, query, 0);
    const out: number[] = [];
    for (let row = 0, base = 0; row < rows; row++, base += words) {
      let differing = 0;
      for (let w = 0; w < words && differing <= cutoff; w++) differing += popcount(query[w]! ^ bits[base + w]!);
      if (differing <= cutoff) out.push(row);
    }
    return out;
  }

  private signsOf(vector: Float32Array, out: Int32Array, at: number): void {
    for (let w = 0; w < this.words; w++) {
      let word = 0;
      const end = Math.min(32, this.dimensions - w * 32);
      for (let b = 0; b < end; b++) if (vector[w * 32 + b]! > 0) word |= 1 << b;
      out[at + w] = word;
    }
  }
}

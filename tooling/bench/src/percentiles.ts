/** Latency summary in milliseconds. */
export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile (0..100) of ascending `sorted` values; NaN when empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const rank = Math.ceil((Math.min(100, Math.max(0, p)) / 100) * n);
  return sorted[Math.min(n - 1, Math.max(0, rank - 1))] as number;
}

/** Summarise raw latencies (ms, any order); the input is not modified. */
export function summarise(values: ArrayLike<number>): LatencySummary {
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  const n = sorted.length;
  return {
    count: n,
    mean: n === 0 ? Number.NaN : sum / n,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: n === 0 ? Number.NaN : (sorted[n - 1] as number),
  };
}

/** A growable float64 buffer for per-response latencies: no per-sample allocation under load. */
export class SampleBuffer {
  #data = new Float64Array(1 << 16);
  #length = 0;

  /** Append one sample. */
  push(value: number): void {
    if (this.#length === this.#data.length) {
      const grown = new Float64Array(this.#data.length * 2);
      grown.set(this.#data);
      this.#data = grown;
    }
    this.#data[this.#length++] = value;
  }

  /** The samples so far (a view, not a copy). */
  values(): Float64Array {
    return this.#data.subarray(0, this.#length);
  }
}

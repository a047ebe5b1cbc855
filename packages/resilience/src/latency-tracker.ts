/** Settings of {@link LatencyTracker}. Durations in milliseconds. */
export interface LatencyTrackerSettings {
  /** Recent samples kept per key (a ring buffer). Default 200. */
  samples?: number;
  /** Percentile (0 < p < 1) the hedge delay is taken from. Default 0.95. */
  percentile?: number;
  /** Samples a key needs before it gets a hedge delay; below, `hedgeDelay` is undefined. Default 20. */
  minSamples?: number;
  /** Floor of the hedge delay, so a fast upstream is not hedged on jitter. Default 50. */
  minDelayMs?: number;
  /** Ceiling of the hedge delay. Default 10 000. */
  maxDelayMs?: number;
}

/** Latency summary of one key. */
export interface LatencySnapshot {
  key: string;
  samples: number;
  p50: number;
  /** The configured percentile (p95 by default). */
  pHedge: number;
}

class Ring {
  readonly values: Float64Array;
  count = 0;
  private next = 0;
  /** Samples added since `sorted` was computed. */
  dirty = 0;
  sorted: Float64Array | undefined;

  constructor(size: number) {
    this.values = new Float64Array(size);
  }

  add(value: number): void {
    this.values[this.next] = value;
    this.next = (this.next + 1) % this.values.length;
    if (this.count < this.values.length) this.count++;
    this.dirty++;
  }

  quantile(q: number): number {
    // Sorting 200 doubles costs a few microseconds; doing it at most every 10 samples keeps the
    // per-request cost negligible while the estimate follows the traffic.
    if (this.sorted === undefined || this.sorted.length !== this.count || this.dirty >= 10) {
      this.sorted = this.values.slice(0, this.count).sort();
      this.dirty = 0;
    }
    const index = Math.min(this.sorted.length - 1, Math.ceil(q * this.sorted.length) - 1);
    return this.sorted[Math.max(0, index)] ?? 0;
  }
}

/**
 * Recent latencies per key (`provider/model`), in process. Feeds the hedge delay: the recent
 * p95 of a candidate is the point after which a second attempt is likely to be worth it.
 * Observe the latency of what the hedge races: the whole answer of a non-stream call, the first
 * event of a stream.
 */
export class LatencyTracker {
  private readonly rings = new Map<string, Ring>();
  private readonly size: number;
  private readonly percentile: number;
  private readonly minSamples: number;
  private readonly minDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(settings: LatencyTrackerSettings = {}) {
    this.size = settings.samples ?? 200;
    this.percentile = settings.percentile ?? 0.95;
    this.minSamples = settings.minSamples ?? 20;
    this.minDelayMs = settings.minDelayMs ?? 50;
    this.maxDelayMs = settings.maxDelayMs ?? 10_000;
    if (!(Number.isInteger(this.size) && this.size > 0)) throw new RangeError(`samples must be a positive integer, got ${this.size}`);
    if (!(this.percentile > 0 && this.percentile < 1)) throw new RangeError(`percentile must be in (0, 1), got ${this.percentile}`);
    if (!(this.minDelayMs >= 0 && this.maxDelayMs >= this.minDelayMs)) throw new RangeError('need 0 <= minDelayMs <= maxDelayMs');
  }

  /** Adds one latency sample in ms. Non-finite or negative values are ignored. */
  observe(key: string, latencyMs: number): void {
    if (!(Number.isFinite(latencyMs) && latencyMs >= 0)) return;
    let ring = this.rings.get(key);
    if (ring === undefined) {
      ring = new Ring(this.size);
      this.rings.set(key, ring);
    }
    ring.add(latencyMs);
  }

  /** The configured percentile of recent samples, or undefined below `minSamples`. */
  quantile(key: string, q = this.percentile): number | undefined {
    const ring = this.rings.get(key);
    if (ring === undefined || ring.count < this.minSamples) return undefined;
    return ring.quantile(q);
  }

  /** When to start a hedge for `key`, in ms: the recent percentile clamped to [min, max]; undefined until enough samples. */
  hedgeDelay(key: string): number | undefined {
    const value = this.quantile(key);
    if (value === undefined) return undefined;
    return Math.min(this.maxDelayMs, Math.max(this.minDelayMs, value));
  }

  /** Every tracked key with its sample count, p50 and hedge percentile. */
  snapshot(): LatencySnapshot[] {
    return [...this.rings.entries()]
      .map(([key, ring]) => ({ key, samples: ring.count, p50: ring.quantile(0.5), pHedge: ring.quantile(this.percentile) }))
      .sort((a, b) => a.key.localeCompare(b.key));
  }
}

import { Counter, Histogram, type Registry } from 'prom-client';

/**
 * Pre-bound metric series for the request path. prom-client hashes the label object on every
 * `inc`/`observe` (~300-500 ns with 3-5 labels); a series bound once is a plain object whose
 * `inc` adds to a number and whose `observe` bumps a bucket. The totals reach the registry at
 * scrape time, through prom-client's own exposition.
 */

/** One counter series: `inc` is a number addition. Negative or non-finite values are ignored. */
export interface CounterSeries {
  inc(value?: number): void;
}

/** One histogram series: `observe` finds the bucket and adds. NaN is ignored. */
export interface HistogramSeries {
  observe(value: number): void;
}

interface Node<S> {
  children: Map<string, Node<S>> | undefined;
  series: S | undefined;
}

/** Series keyed by their label values, one map level per label: a lookup builds no string. */
class SeriesTree<S> {
  private readonly root: Node<S> = { children: undefined, series: undefined };

  constructor(private readonly create: (values: readonly string[]) => S) {}

  get(values: readonly string[]): S {
    let node = this.root;
    for (const value of values) {
      node.children ??= new Map();
      let next = node.children.get(value);
      if (!next) {
        next = { children: undefined, series: undefined };
        node.children.set(value, next);
      }
      node = next;
    }
    node.series ??= this.create(values);
    return node.series;
  }
}

export interface SeriesMetricConfig<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  registers: Registry[];
}

function labelsOf<L extends string>(names: readonly L[], values: readonly string[]): Record<L, string> {
  const labels = {} as Record<L, string>;
  names.forEach((name, i) => {
    labels[name] = values[i] ?? '';
  });
  return labels;
}

class PendingCount implements CounterSeries {
  pending = 0;
  constructor(readonly labels: Readonly<Record<string, string>>) {}
  inc(value = 1): void {
    if (value >= 0 && value !== Number.POSITIVE_INFINITY) this.pending += value;
  }
}

/** A counter whose series are bound once and flushed into a prom-client Counter at scrape time. */
export class BoundCounter<L extends string> {
  private readonly tree: SeriesTree<PendingCount>;
  private readonly all: PendingCount[] = [];

  constructor(private readonly config: SeriesMetricConfig<L>) {
    const all = this.all;
    new Counter<string>({
      name: config.name,
      help: config.help,
      labelNames: config.labelNames,
      registers: config.registers,
      collect() {
        for (const series of all) {
          this.inc(series.labels, series.pending);
          series.pending = 0;
        }
      },
    });
    this.tree = new SeriesTree((values) => {
      const series = new PendingCount(labelsOf(config.labelNames, values));
      all.push(series);
      return series;
    });
  }

  /** The series of these label values, in `labelNames` order; keep it where the labels are known early. */
  series(...values: string[]): CounterSeries {
    return this.tree.get(values);
  }

  /** Convenience for cold paths: finds the series by a label object, then adds. */
  inc(labels: Readonly<Record<L, string | number>>, value = 1): void {
    this.tree.get(this.config.labelNames.map((name) => String(labels[name]))).inc(value);
  }
}

class BucketCounts implements HistogramSeries {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
  }
  observe(value: number): void {
    if (Number.isNaN(value)) return;
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    // Above the last bound: only +Inf (the count) holds it.
    if (i < bounds.length) this.counts[i]!++;
    this.sum += value;
    this.count++;
  }
}

interface ExportedValue {
  labels: Record<string, string | number>;
  sharedLabels: Readonly<Record<string, string>>;
  value: number;
  metricName: string;
}

/**
 * The registry's view of a {@link BoundHistogram}: prom-client's Registry formats what
 * `getForPromString` returns (the shape prom-client's own Histogram produces), so the exposition
 * is byte-for-byte prom-client's. Its inherited `observe` is never called.
 */
class BucketCarrier extends Histogram<string> {
  constructor(
    private readonly spec: SeriesMetricConfig<string> & { buckets: readonly number[] },
    private readonly all: readonly BucketCounts[],
  ) {
    super({ name: spec.name, help: spec.help, labelNames: spec.labelNames, buckets: [...spec.buckets], registers: spec.registers });
  }

  getForPromString(): Promise<{ name: string; help: string; type: 'histogram'; values: ExportedValue[]; aggregator: 'sum' }> {
    const { name, help, buckets } = this.spec;
    const bucket = `${name}_bucket`;
    const values: ExportedValue[] = [];
    for (const series of this.all) {
      let cumulative = 0;
      buckets.forEach((le, i) => {
        cumulative += series.counts[i]!;
        values.push({ labels: { le }, sharedLabels: series.labels, value: cumulative, metricName: bucket });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: series.labels, value: series.count, metricName: bucket });
      values.push({ labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${name}_sum` });
      values.push({ labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${name}_count` });
    }
    return Promise.resolve({ name, help, type: 'histogram', values, aggregator: 'sum' });
  }
}

/** A histogram whose series are bound once; buckets are counted in place and read at scrape time. */
export class BoundHistogram<L extends string> {
  private readonly tree: SeriesTree<BucketCounts>;

  constructor(private readonly config: SeriesMetricConfig<L> & { buckets: readonly number[] }) {
    const all: BucketCounts[] = [];
    new BucketCarrier(config, all);
    this.tree = new SeriesTree((values) => {
      const series = new BucketCounts(labelsOf(config.labelNames, values), config.buckets);
      all.push(series);
      return series;
    });
  }

  /** The series of these label values, in `labelNames` order; keep it where the labels are known early. */
  series(...values: string[]): HistogramSeries {
    return this.tree.get(values);
  }

  /** Convenience for cold paths: finds the series by a label object, then observes. */
  observe(labels: Readonly<Record<L, string | number>>, value: number): void {
    this.tree.get(this.config.labelNames.map((name) => String(labels[name]))).observe(value);
  }
}

/** Settings of {@link trainBoostedTrees}. */
export interface BoostingSettings {
  trees: number;
  depth: number;
  learningRate: number;
  /** L2 penalty on leaf values. */
  lambda: number;
  /** Fewest rows a leaf may hold. */
  minLeaf: number;
  /** Candidate split points per feature (quantiles of the training rows). */
  bins: number;
}

export interface BoostedTrees {
  bias: number;
  trees: { feature: number[]; threshold: number[]; leaf: number[] }[];
}

/** Split points of one feature: up to `bins - 1` distinct quantiles (rows go right when x > point). */
function splitPoints(column: Float64Array, bins: number): number[] {
  const sorted = Float64Array.from(column).sort();
  const points: number[] = [];
  for (let b = 1; b < bins; b++) {
    const value = sorted[Math.floor((b * sorted.length) / bins)]!;
    if (value < sorted[sorted.length - 1]! && value !== points[points.length - 1]) points.push(value);
  }
  return points;
}

/**
 * Gradient-boosted trees with logistic loss, complete trees of `depth` (an unsplittable node
 * sends every row left), histogram split search over quantile bins. Deterministic: no
 * sampling, so the same rows give the same model.
 */
export function trainBoostedTrees(rows: readonly Float64Array[], labels: readonly boolean[], settings: BoostingSettings): BoostedTrees {
  const n = rows.length;
  const width = rows[0]?.length ?? 0;
  const points: number[][] = [];
  const binned: Uint8Array[] = [];
  for (let f = 0; f < width; f++) {
    const column = Float64Array.from(rows, (r) => r[f]!);
    const p = splitPoints(column, settings.bins);
    points.push(p);
    binned.push(Uint8Array.from(column, (x) => {
      let lo = 0;
      let hi = p.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (x > p[mid]!) lo = mid + 1;
        else hi = mid;
      }
      return lo; // bin b holds points[b-1] < x <= points[b]
    }));
  }
  const y = Float64Array.from(labels, (l) => (l ? 1 : 0));
  const mean = Math.min(1 - 1e-6, Math.max(1e-6, y.reduce((s, v) => s + v, 0) / Math.max(1, n)));
  const bias = Math.log(mean / (1 - mean));
  const z = new Float64Array(n).fill(bias);
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  const node = new Int32Array(n);
  const internal = (1 << settings.depth) - 1;
  const trees: BoostedTrees['trees'] = [];
  const maxBins = settings.bins + 1;

  for (let t = 0; t < settings.trees; t++) {
    for (let i = 0; i < n; i++) {
      const p = 1 / (1 + Math.exp(-z[i]!));
      g[i] = p - y[i]!;
      h[i] = Math.max(1e-9, p * (1 - p));
    }
    node.fill(0);
    const feature = new Array<number>(internal).fill(0);
    const threshold = new Array<number>(internal).fill(Number.MAX_VALUE);
    for (let level = 0; level < settings.depth; level++) {
      const first = (1 << level) - 1;
      const count = 1 << level;
      const best = Array.from({ length: count }, () => ({ gain: 0, feature: 0, bin: -1 }));
      const totals = Array.from({ length: count }, () => ({ g: 0, h: 0, n: 0 }));
      for (let i = 0; i < n; i++) {
        const k = node[i]! - first;
        totals[k]!.g += g[i]!;
        totals[k]!.h += h[i]!;
        totals[k]!.n++;
      }
      for (let f = 0; f < width; f++) {
        const column = binned[f]!;
        const hg = new Float64Array(count * maxBins);
        const hh = new Float64Array(count * maxBins);
        const hn = new Float64Array(count * maxBins);
        for (let i = 0; i < n; i++) {
          const at = (node[i]! - first) * maxBins + column[i]!;
          hg[at]! += g[i]!;
          hh[at]! += h[i]!;
          hn[at]!++;
        }
        for (let k = 0; k < count; k++) {
          const total = totals[k]!;
          const parent = (total.g * total.g) / (total.h + settings.lambda);
          let gl = 0;
          let hl = 0;
          let nl = 0;
          for (let b = 0; b < points[f]!.length; b++) {
            gl += hg[k * maxBins + b]!;
            hl += hh[k * maxBins + b]!;
            nl += hn[k * maxBins + b]!;
            if (nl < settings.minLeaf || total.n - nl < settings.minLeaf) continue;
            const gr = total.g - gl;
            const hr = total.h - hl;
            const gain = (gl * gl) / (hl + settings.lambda) + (gr * gr) / (hr + settings.lambda) - parent;
            if (gain > best[k]!.gain) best[k] = { gain, feature: f, bin: b };
          }
        }
      }
      for (let k = 0; k < count; k++) {
        if (best[k]!.bin < 0) continue;
        feature[first + k] = best[k]!.feature;
        threshold[first + k] = points[best[k]!.feature]![best[k]!.bin]!;
      }
      for (let i = 0; i < n; i++) {
        const at = node[i]!;
        node[i] = 2 * at + (rows[i]![feature[at]!]! > threshold[at]! ? 2 : 1);
      }
    }
    const sums = Array.from({ length: internal + 1 }, () => ({ g: 0, h: 0 }));
    for (let i = 0; i < n; i++) {
      const leaf = node[i]! - internal;
      sums[leaf]!.g += g[i]!;
      sums[leaf]!.h += h[i]!;
    }
    const leaf = sums.map((s) => Number(((-s.g / (s.h + settings.lambda)) * settings.learningRate).toPrecision(6)));
    for (let i = 0; i < n; i++) z[i]! += leaf[node[i]! - internal]!;
    trees.push({ feature, threshold, leaf });
  }
  return { bias: Number(bias.toPrecision(8)), trees };
}

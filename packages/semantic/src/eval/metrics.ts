/** A scored pair: the similarity the cache sees and whether a hit would be right. */
export interface Scored {
  score: number;
  positive: boolean;
}

export interface Operating {
  threshold: number;
  precision: number;
  recall: number;
  hits: number;
}

/** Precision and recall of "hit when score >= threshold". */
export function at(rows: readonly Scored[], threshold: number): Operating {
  let tp = 0;
  let fp = 0;
  let positives = 0;
  for (const row of rows) {
    if (row.positive) positives++;
    if (row.score >= threshold) {
      if (row.positive) tp++;
      else fp++;
    }
  }
  return { threshold, precision: tp + fp === 0 ? 1 : tp / (tp + fp), recall: positives === 0 ? 0 : tp / positives, hits: tp + fp };
}

/** Precision and recall at every threshold of a 0.001 grid from `from` to 1, from high to low. */
export function curve(rows: readonly Scored[], from = 0): Operating[] {
  const sorted = [...rows].sort((x, y) => y.score - x.score);
  const positives = rows.filter((r) => r.positive).length;
  const points: Operating[] = [];
  let tp = 0;
  let fp = 0;
  let next = 0;
  for (let milli = 1000; milli >= Math.round(from * 1000); milli--) {
    const threshold = milli / 1000;
    while (next < sorted.length && sorted[next]!.score >= threshold) {
      if (sorted[next]!.positive) tp++;
      else fp++;
      next++;
    }
    points.push({ threshold, precision: tp + fp === 0 ? 1 : tp / (tp + fp), recall: positives === 0 ? 0 : tp / positives, hits: tp + fp });
  }
  return points;
}

/**
 * The lowest threshold of the 0.001 grid (so the highest recall) whose precision is at least
 * `target`, with at least `minHits` hits so a handful of lucky top pairs cannot set it.
 * Undefined when no threshold qualifies.
 */
export function calibrate(rows: readonly Scored[], target: number, minHits = 30): Operating | undefined {
  let best: Operating | undefined;
  for (const point of curve(rows)) if (point.hits >= minHits && point.precision >= target) best = point;
  return best;
}

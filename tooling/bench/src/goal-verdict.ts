/** One of issue 34's goals: a bound on one figure of the run. */
export interface Goal {
  /** The goal, in words (`p99 at 16 connections, proxy mode ≤ 2× the floor`). */
  goal: string;
  /** What was measured and from what, in words; `–` or the reason when not measured. */
  figure: string;
  /** The figure compared with the bound; undefined when not measured. */
  value: number | undefined;
  limit: number;
  unit: '×' | 'ms' | 'MB' | '%';
  /** `most`: the figure must be at most the bound; `least`: at least. */
  bound: 'most' | 'least';
}

/** Whether the goal is met; undefined when its figure was not measured. */
export function goalMet(g: Goal): boolean | undefined {
  if (g.value === undefined || !Number.isFinite(g.value)) return undefined;
  return g.bound === 'most' ? g.value <= g.limit : g.value >= g.limit;
}

function amount(value: number, unit: Goal['unit']): string {
  if (unit === '×') return `${value.toFixed(2)}×`;
  if (unit === 'MB') return `${value.toFixed(0)} MB`;
  if (unit === '%') return `${value.toFixed(1)}%`;
  return `${value.toFixed(1)} ms`;
}

/**
 * `met`, `not measured`, or `**missed**` and by how much: for a ratio or a share, relative to the
 * bound (`+95%` for 7.8× against ≤ 4×); for milliseconds and megabytes, the excess itself.
 */
export function goalVerdict(g: Goal): string {
  const met = goalMet(g);
  if (met === undefined) return 'not measured';
  if (met) return 'met';
  const value = g.value as number;
  const sign = g.bound === 'most' ? '≤' : '≥';
  const by =
    g.unit === 'ms' || g.unit === 'MB'
      ? `${value > g.limit ? '+' : '−'}${amount(Math.abs(value - g.limit), g.unit)}`
      : `${value > g.limit ? '+' : '−'}${((Math.abs(value - g.limit) / g.limit) * 100).toFixed(0)}%`;
  return `**missed** by ${by} (${amount(value, g.unit)} vs ${sign} ${amount(g.limit, g.unit)})`;
}

/** Server-rendered SVG charts: no script, no chart library. */

export interface Series {
  name: string;
  /** A CSS colour. */
  color: string;
  /** One value per label; null = no data in that bucket (a gap). */
  values: (number | null)[];
}

export interface LineChartProps {
  title: string;
  labels: string[];
  series: Series[];
  /** Formats the axis maximum and the tooltips. */
  format: (value: number) => string;
  /** Fixed upper bound (e.g. 1 for rates); default: the data's maximum. */
  max?: number;
}

const width = 560;
const height = 180;
const pad = { left: 64, right: 12, top: 12, bottom: 26 };

/** A line chart of one or more series over the same buckets. */
export function LineChart(props: LineChartProps) {
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const observed = props.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const top = props.max ?? Math.max(0, ...observed);
  const max = top > 0 ? top : 1;
  const n = props.labels.length;
  const x = (i: number) => pad.left + (n <= 1 ? innerW / 2 : (i * innerW) / (n - 1));
  const y = (v: number) => pad.top + innerH - (v / max) * innerH;
  const ticks = n <= 1 ? [0] : [0, Math.floor((n - 1) / 2), n - 1];
  return (
    <figure class="chart">
      <figcaption>
        {props.title}
        {props.series.length > 1 ? (
          <span class="legend">
            {props.series.map((s) => (
              <span>
                <i style={`background:${s.color}`} />
                {s.name}
              </span>
            ))}
          </span>
        ) : null}
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={props.title}>
        <line x1={pad.left} y1={y(0)} x2={width - pad.right} y2={y(0)} class="axis" />
        <line x1={pad.left} y1={y(max)} x2={width - pad.right} y2={y(max)} class="grid" />
        <text x={pad.left - 6} y={y(max) + 4} class="ylabel">
          {props.format(max)}
        </text>
        <text x={pad.left - 6} y={y(0) + 4} class="ylabel">
          {props.format(0)}
        </text>
        {ticks.map((i) => (
          <text x={x(i)} y={height - 8} class="xlabel" text-anchor={i === 0 && n > 1 ? 'start' : i === n - 1 && n > 1 ? 'end' : 'middle'}>
            {props.labels[i] ?? ''}
          </text>
        ))}
        {props.series.map((s) => (
          <g>
            {segments(s.values).map((segment) => (
              <polyline fill="none" stroke={s.color} stroke-width="2" points={segment.map((i) => `${x(i).toFixed(1)},${y(s.values[i]!).toFixed(1)}`).join(' ')} />
            ))}
            {s.values.map((v, i) =>
              v === null ? null : (
                <circle cx={x(i).toFixed(1)} cy={y(v).toFixed(1)} r={n > 48 ? 1.5 : 3} fill={s.color}>
                  <title>{`${s.name} · ${props.labels[i]}: ${props.format(v)}`}</title>
                </circle>
              ),
            )}
          </g>
        ))}
      </svg>
    </figure>
  );
}

/** Runs of consecutive non-null indexes (a line is broken where a bucket has no data). */
function segments(values: (number | null)[]): number[][] {
  const out: number[][] = [];
  let run: number[] = [];
  values.forEach((v, i) => {
    if (v === null) {
      if (run.length) out.push(run);
      run = [];
    } else run.push(i);
  });
  if (run.length) out.push(run);
  return out;
}

export interface Share {
  label: string;
  /** 0..1 */
  share: number;
  detail: string;
}

/** Horizontal bars of shares (model mix). */
export function ShareBars(props: { title: string; shares: Share[] }) {
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      {props.shares.length === 0 ? <p class="muted">No routing decisions in this period.</p> : null}
      <ul class="bars">
        {props.shares.map((s) => (
          <li>
            <span class="bar-label">{s.label}</span>
            <span class="bar">
              <span style={`width:${(s.share * 100).toFixed(1)}%`} />
            </span>
            <span class="bar-value">{s.detail}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

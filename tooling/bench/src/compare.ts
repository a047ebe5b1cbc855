import type { Measurement } from './measure.js';
import type { TargetName } from './target.js';

/** A measurement with its overhead against the direct run of the same scenario. */
export interface Row {
  m: Measurement;
  /** p50 minus direct p50, ms; undefined without a direct run. */
  p50OverheadMs: number | undefined;
  p99OverheadMs: number | undefined;
}

/** svc divided by Portkey for one scenario; undefined where either side is missing or <= 0. */
export interface Ratios {
  connections: number;
  stream: boolean;
  rps: number | undefined;
  p50Overhead: number | undefined;
  p99Overhead: number | undefined;
  cpuPerRequest: number | undefined;
  rss: number | undefined;
}

/** `a / b`, or undefined when either is missing, not finite, or not positive. */
export function ratio(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined || b === undefined) return undefined;
  if (!Number.isFinite(a) || !Number.isFinite(b) || a <= 0 || b <= 0) return undefined;
  return a / b;
}

function find(ms: readonly Measurement[], target: TargetName, connections: number, stream: boolean) {
  return ms.find((m) => m.target === target && m.connections === connections && m.stream === stream);
}

/** Attach overhead vs direct (same connections and stream mode) to every measurement. */
export function withOverhead(ms: readonly Measurement[]): Row[] {
  return ms.map((m) => {
    const direct = find(ms, 'direct', m.connections, m.stream);
    return {
      m,
      p50OverheadMs: direct ? m.load.latency.p50 - direct.load.latency.p50 : undefined,
      p99OverheadMs: direct ? m.load.latency.p99 - direct.load.latency.p99 : undefined,
    };
  });
}

/** svc / Portkey ratios for every scenario where both ran (lower is better except req/s). */
export function svcVsPortkey(ms: readonly Measurement[]): Ratios[] {
  const rows = withOverhead(ms);
  const out: Ratios[] = [];
  for (const svc of rows.filter((r) => r.m.target === 'svc')) {
    const pk = rows.find(
      (r) =>
        r.m.target === 'portkey' &&
        r.m.connections === svc.m.connections &&
        r.m.stream === svc.m.stream,
    );
    if (!pk) continue;
    out.push({
      connections: svc.m.connections,
      stream: svc.m.stream,
      rps: ratio(svc.m.load.rps, pk.m.load.rps),
      p50Overhead: ratio(svc.p50OverheadMs, pk.p50OverheadMs),
      p99Overhead: ratio(svc.p99OverheadMs, pk.p99OverheadMs),
      cpuPerRequest: ratio(svc.m.cpuUsPerRequest, pk.m.cpuUsPerRequest),
      rss: ratio(svc.m.rssMb, pk.m.rssMb),
    });
  }
  return out;
}

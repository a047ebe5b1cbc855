// Test-only: measurements with just the fields the report maths reads.
import type { Measurement } from './measure.js';
import type { TargetName } from './target.js';

/** A measurement for tests. */
export function fakeMeasurement(
  target: TargetName,
  connections: number,
  values: { rps: number; p50: number; p99: number; cpuUs: number; rssMb: number },
  stream = false,
): Measurement {
  return {
    target,
    connections,
    stream,
    load: {
      elapsedSec: 10,
      responses: values.rps * 10,
      ok: values.rps * 10,
      non2xx: 0,
      errors: 0,
      timeouts: 0,
      rps: values.rps,
      latency: { count: values.rps * 10, mean: values.p50, p50: values.p50, p90: values.p99, p99: values.p99, max: values.p99 },
    },
    cpuMs: (values.cpuUs * values.rps * 10) / 1000,
    cpuUsPerRequest: values.cpuUs,
    rssMb: values.rssMb,
    peakRssMb: values.rssMb,
    upstreamCpuMs: 0,
    loadgenCpuMs: 0,
    loadAvg1: 0,
  };
}

import type { CacheBenchReport } from './cache-figures.js';
import { ratio } from './compare.js';
import type { EncoderBenchReport } from './encoder-bench.js';
import type { Measurement } from './measure.js';
import type { ReportLoopReport } from './report-loop.js';

/** One figure of a run next to the floor's (the minimal Node.js proxy) in the same scenario. */
export interface FloorRow {
  connections: number;
  /** What was measured, in words (`svc proxy mode`, `svc exact hit`...). */
  label: string;
  m: Measurement;
  floor: Measurement;
  cpu: number | undefined;
  p99: number | undefined;
  peakRss: number | undefined;
  rps: number | undefined;
}

interface FloorInputs {
  measurements: readonly Measurement[];
  cache?: CacheBenchReport | undefined;
  encoder?: EncoderBenchReport | undefined;
  /** The answer-cache runs on PostgreSQL + Redis (the production stores). */
  stores?: CacheBenchReport | undefined;
  /** svc in proxy mode on a large ledger, alone and beside a report loop. */
  reportLoop?: ReportLoopReport | undefined;
}

function row(label: string, m: Measurement, floor: Measurement): FloorRow {
  return {
    connections: m.connections,
    label,
    m,
    floor,
    cpu: ratio(m.cpuUsPerRequest, floor.cpuUsPerRequest),
    p99: ratio(m.load.latency.p99, floor.load.latency.p99),
    peakRss: ratio(m.peakRssMb, floor.peakRssMb),
    rps: ratio(m.load.rps, floor.load.rps),
  };
}

/**
 * Every JSON closed-loop figure of the run against the floor's at the same connection count: svc in
 * proxy mode and Portkey from the main runs, svc's exact hit and full-mode miss from the cache part,
 * full mode with memory prompts on the default encoder from the encoder part, and svc's proxy mode,
 * exact hit and miss on the production stores.
 */
export function floorRows(inputs: FloorInputs): FloorRow[] {
  const floors = inputs.measurements.filter((m) => m.target === 'floor' && !m.stream);
  const rows: FloorRow[] = [];
  for (const floor of floors) {
    const c = floor.connections;
    rows.push(row('floor (node:http + undici Pool)', floor, floor));
    for (const m of inputs.measurements.filter((x) => x.connections === c && !x.stream)) {
      if (m.target === 'svc') rows.push(row('svc, proxy mode', m, floor));
      if (m.target === 'svc-otel') rows.push(row('svc, proxy mode, OpenTelemetry on', m, floor));
      if (m.target === 'portkey') rows.push(row('portkey', m, floor));
    }
    const scenario = inputs.cache?.scenarios.find((s) => s.connections === c && s.rate === undefined);
    if (scenario?.runs.hit) rows.push(row('svc, exact hit (`full`)', scenario.runs.hit.measurement, floor));
    if (scenario?.runs.miss) rows.push(row('svc, full-mode miss (unique questions)', scenario.runs.miss.measurement, floor));
    const minilm = inputs.encoder?.instances.find((i) => i.encoder === 'minilm');
    const full = minilm?.runs.find((r) => r.kind === 'full' && r.connections === c);
    if (full) rows.push(row('svc, full mode with memory prompts (minilm)', full.measurement, floor));
    const stores = inputs.stores?.scenarios.find((s) => s.connections === c && s.rate === undefined);
    if (stores?.runs.proxy) rows.push(row('svc, proxy mode, production stores', stores.runs.proxy.measurement, floor));
    if (stores?.runs.hit) rows.push(row('svc, exact hit, production stores', stores.runs.hit.measurement, floor));
    if (stores?.runs.miss) rows.push(row('svc, full-mode miss, production stores', stores.runs.miss.measurement, floor));
    rows.push(...ledgerRows(inputs.reportLoop, floor));
  }
  return rows;
}

function ledgerRows(loop: ReportLoopReport | undefined, floor: Measurement): FloorRow[] {
  if (!loop) return [];
  const ledger = `${loop.ledgerRows.toLocaleString('en-US')}-row ledger`;
  const rows: FloorRow[] = [];
  if (loop.plain?.connections === floor.connections) rows.push(row(`svc, proxy mode, ${ledger}`, loop.plain, floor));
  if (loop.withReports?.connections === floor.connections) rows.push(row(`svc, proxy mode, ${ledger}, report in a loop`, loop.withReports, floor));
  return rows;
}

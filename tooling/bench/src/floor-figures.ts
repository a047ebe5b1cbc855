import type { CacheBenchReport } from './cache-figures.js';
import { ratio } from './compare.js';
import type { EncoderBenchReport } from './encoder-bench.js';
import type { Measurement } from './measure.js';

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

/** Issue 16's goals, each a ratio to the floor or a bound, with the figure that decides it. */
export interface FloorGoal {
  goal: string;
  figure: string;
  met: boolean | undefined;
}

interface FloorInputs {
  measurements: readonly Measurement[];
  cache?: CacheBenchReport | undefined;
  encoder?: EncoderBenchReport | undefined;
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
 * full mode with memory prompts on the default encoder from the encoder part.
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
  }
  return rows;
}

const x = (v: number | undefined) => (v === undefined ? '–' : `${v.toFixed(2)}×`);

/** Issue 16's performance goals judged on this run's figures (undefined: not measured in this run). */
export function floorGoals(inputs: FloorInputs): FloorGoal[] {
  const rows = floorRows(inputs);
  const widest = Math.max(...rows.map((r) => r.connections), 0);
  const at = (label: string, c = widest) => rows.find((r) => r.label === label && r.connections === c);
  const proxy = at('svc, proxy mode');
  const hit = at('svc, exact hit (`full`)');
  const p99 = rows.find((r) => r.label === 'svc, proxy mode' && r.connections === 16);
  const hashed = inputs.encoder?.instances.find((i) => i.encoder === 'hashed');
  const minilm = inputs.encoder?.instances.find((i) => i.encoder === 'minilm');
  const fullCpu = minilm?.runs.filter((r) => r.kind === 'full').map((r) => r.measurement.cpuUsPerRequest);
  const worstFull = fullCpu && fullCpu.length > 0 ? Math.max(...fullCpu) : undefined;
  return [
    { goal: 'proxy-mode CPU per request ≤ 1.5× the floor', figure: proxy ? `${x(proxy.cpu)} (${proxy.m.cpuUsPerRequest.toFixed(0)} vs ${proxy.floor.cpuUsPerRequest.toFixed(0)} µs, ${widest} conn)` : '–', met: proxy?.cpu === undefined ? undefined : proxy.cpu <= 1.5 },
    { goal: 'exact hit CPU per request ≤ 1.0× the floor', figure: hit ? `${x(hit.cpu)} (${hit.m.cpuUsPerRequest.toFixed(0)} vs ${hit.floor.cpuUsPerRequest.toFixed(0)} µs, ${widest} conn)` : '–', met: hit?.cpu === undefined ? undefined : hit.cpu <= 1 },
    { goal: 'p99 at 16 connections ≤ 2× the floor (proxy mode)', figure: p99 ? `${x(p99.p99)} (${p99.m.load.latency.p99.toFixed(2)} vs ${p99.floor.load.latency.p99.toFixed(2)} ms)` : '– (no 16-connection run)', met: p99?.p99 === undefined ? undefined : p99.p99 <= 2 },
    { goal: 'peak RSS under load ≤ 200 MB without the sentence encoder', figure: hashed ? `${hashed.peakRssMb.toFixed(0)} MB (\`SVC_SENTENCE_ENCODER=hashed\`)` : '–', met: hashed ? hashed.peakRssMb <= 200 : undefined },
    { goal: 'peak RSS under load ≤ 400 MB with it loaded', figure: minilm ? `${minilm.peakRssMb.toFixed(0)} MB (minilm, the default)` : '–', met: minilm ? minilm.peakRssMb <= 400 : undefined },
    { goal: 'full-mode miss including the encoder ≤ 5 ms CPU', figure: worstFull === undefined ? '–' : `${(worstFull / 1000).toFixed(2)} ms (memory prompts, minilm, worst connection count)`, met: worstFull === undefined ? undefined : worstFull <= 5000 },
  ];
}
